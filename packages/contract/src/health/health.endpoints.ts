import { z } from 'zod';
import { endpointGroup, errorResponses } from '../shared/endpoint';

/** For load balancers and container health checks. */
export const healthResponseSchema = z.object({ status: z.literal('ok'), database: z.literal('ok') });
export type HealthResponse = z.infer<typeof healthResponseSchema>;

export const healthEndpoints = endpointGroup('Health', {
  check: {
    method: 'GET',
    path: '/api/health',
    summary: 'Whether the server and its database answer (503 when the database does not).',
    access: 'public',
    responses: { 200: healthResponseSchema, ...errorResponses('RATE_LIMITED', 'INTERNAL', 'UNAVAILABLE') },
  },
});
