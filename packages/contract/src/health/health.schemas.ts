import { z } from 'zod';

/** For load balancers and container health checks. */
export const healthResponseSchema = z.object({ status: z.literal('ok'), database: z.literal('ok') });
export type HealthResponse = z.infer<typeof healthResponseSchema>;
