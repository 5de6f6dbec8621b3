import {
  alertParamsSchema,
  alertSchema,
  alertsPageSchema,
  alertsQuerySchema,
  alertsSummarySchema,
} from './alerts.schemas';
import { endpointGroup, signedInErrors } from '../shared/endpoint';

/** A person's own alerts (administrators too see only their own). */
export const alertEndpoints = endpointGroup('Alerts', {
  list: {
    method: 'GET',
    path: '/api/alerts',
    summary:
      "The person's alerts, most recently seen first, filtered by state, kind and severity, paged by cursor.",
    query: alertsQuerySchema,
    responses: { 200: alertsPageSchema, ...signedInErrors() },
  },
  summary: {
    method: 'GET',
    path: '/api/alerts/summary',
    summary: "How many of the person's alerts are open (the bell's number).",
    responses: { 200: alertsSummarySchema, ...signedInErrors() },
  },
  acknowledge: {
    method: 'POST',
    path: '/api/alerts/:id/acknowledge',
    summary: 'The person knows of the alert: it leaves the open count and keeps counting its cause.',
    params: alertParamsSchema,
    responses: { 200: alertSchema, ...signedInErrors('NOT_FOUND') },
  },
  resolve: {
    method: 'POST',
    path: '/api/alerts/:id/resolve',
    summary: 'The person closes the alert; its cause happening again raises a new one.',
    params: alertParamsSchema,
    responses: { 200: alertSchema, ...signedInErrors('NOT_FOUND') },
  },
});
