import type { FastifyPluginAsync } from 'fastify';
import type { ModuleOptions } from '../../app';

export interface HealthResponse {
  status: 'ok';
  database: 'ok';
}

/** For load balancers and container health checks: 200 when the database answers, else 503. */
export const healthRoutes: FastifyPluginAsync<ModuleOptions> = async (app, { deps }) => {
  app.get('/api/health', { config: { access: 'public' } }, async (): Promise<HealthResponse> => {
    await deps.db.query('SELECT 1');
    return { status: 'ok', database: 'ok' };
  });
};
