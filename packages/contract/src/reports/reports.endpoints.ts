import {
  activityQuerySchema,
  activityReportSchema,
  errorsReportSchema,
  overviewReportSchema,
  performanceReportSchema,
  reportQuerySchema,
  securityReportSchema,
  trafficReportSchema,
} from './reports.schemas';
import { cloudflareErrors, endpointGroup, signedInErrors } from '../shared/endpoint';

/** A report's errors: a range beyond what the zones' plans keep (400), an unknown zone or account (404), Cloudflare's. */
export const reportEndpoints = endpointGroup('Reports', {
  security: {
    method: 'GET',
    path: '/api/reports/security',
    summary:
      "Security events of the person's zones from Cloudflare's analytics: over time by action, by source, top source IPs (each with the person's lists already holding it), ASNs, countries, hosts, paths and rules, and recent sampled events.",
    query: reportQuerySchema,
    responses: { 200: securityReportSchema, ...cloudflareErrors() },
    costly: true,
    // Serialised once per answer read (and per version of the person's lists for security).
    preSerialized: true,
  },
  traffic: {
    method: 'GET',
    path: '/api/reports/traffic',
    summary:
      "Requests of the person's zones from Cloudflare's analytics: over time, cached and uncached, by status class, top countries, hosts and paths.",
    query: reportQuerySchema,
    responses: { 200: trafficReportSchema, ...cloudflareErrors() },
    costly: true,
    // Serialised once per answer read (and per version of the person's lists for security).
    preSerialized: true,
  },
  errors: {
    method: 'GET',
    path: '/api/reports/errors',
    summary:
      "4xx and 5xx answers of the person's zones from Cloudflare's analytics: over time, by status, edge and origin errors, top paths and hosts.",
    query: reportQuerySchema,
    responses: { 200: errorsReportSchema, ...cloudflareErrors() },
    costly: true,
    // Serialised once per answer read (and per version of the person's lists for security).
    preSerialized: true,
  },
  overview: {
    method: 'GET',
    path: '/api/reports/overview',
    summary:
      "The overview's four tiles, live: active servers (none until Server Management exists), security alerts (unlisted top attackers of the last 24 h), blocked threats of the last 24 h, and system health.",
    responses: { 200: overviewReportSchema, ...signedInErrors() },
    costly: true,
  },
  activity: {
    method: 'GET',
    path: '/api/reports/activity',
    summary:
      "Guardian's own changes from its audit trail, as charts: per hour or day (in the asked time zone) by kind, by person, done, refused and failed; each with the Activity table's filters showing the same changes. `scope=everyone` (administrators) covers every person.",
    query: activityQuerySchema,
    responses: { 200: activityReportSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND') },
  },
  performance: {
    method: 'GET',
    path: '/api/reports/performance',
    summary:
      "The person's zones' edge and origin response times (mean and percentiles) and cached share over time, from Cloudflare's analytics; and Guardian's own: the person's jobs done and failed over time, and each account token's use of its request budgets.",
    query: reportQuerySchema,
    responses: { 200: performanceReportSchema, ...cloudflareErrors() },
    costly: true,
  },
});
