import { healthEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db';
import { route } from '../../endpoint-route';

/** For load balancers and container health checks: 200 when the database answers, else 503. */
export const healthRoutes: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  route(app, healthEndpoints.check, async () => {
    await db.query('SELECT 1');
    return { status: 'ok' as const, database: 'ok' as const };
  });
};
