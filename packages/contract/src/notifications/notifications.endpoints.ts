import {
  notificationPreferencesSchema,
  notificationPreferencesUpdateRequestSchema,
} from './notifications.schemas';
import { endpointGroup, signedInErrors } from '../shared/endpoint';

/** The signed-in person's own notification preferences (nobody reads or sets another's). */
export const notificationEndpoints = endpointGroup('Notifications', {
  get: {
    method: 'GET',
    path: '/api/me/notifications',
    summary:
      "Where each kind of the person's alerts goes besides the console: e-mail (batched) and webhooks.",
    responses: { 200: notificationPreferencesSchema, ...signedInErrors() },
  },
  update: {
    method: 'PUT',
    path: '/api/me/notifications',
    summary: "Change where some kinds of the person's alerts go; the kinds not given stay as they are.",
    body: notificationPreferencesUpdateRequestSchema,
    responses: { 200: notificationPreferencesSchema, ...signedInErrors() },
  },
});
