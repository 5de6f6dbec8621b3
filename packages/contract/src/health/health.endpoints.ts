import { endpointGroup, errorResponses } from '../shared/endpoint';
import { healthResponseSchema } from './health.schemas';

export const healthEndpoints = endpointGroup('Health', {
  check: {
    method: 'GET',
    path: '/api/health',
    summary: 'Whether the server and its database answer (503 when the database does not).',
    access: 'public',
    responses: { 200: healthResponseSchema, ...errorResponses('RATE_LIMITED', 'INTERNAL', 'UNAVAILABLE') },
  },
});
