import { alertEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../endpoint-route';
import type { AlertsService } from './alerts.service';

/** The person's alerts under /api/alerts (acknowledge and resolve are audited as every change is). */
export const alertsRoutes: FastifyPluginAsync<{ alerts: AlertsService }> = async (app, { alerts }) => {
  route(app, alertEndpoints.list, async (request) => alerts.list(request.user.id, request.query));

  route(app, alertEndpoints.summary, async (request) => ({
    open: await alerts.openCount(request.user.id),
  }));

  // Ownership is the service's: the alert's own person, else 404.
  route(
    app,
    alertEndpoints.acknowledge,
    async (request) => alerts.acknowledge(request.user.id, request.params.id),
    {
      owns: ['id'],
    },
  );
  route(app, alertEndpoints.resolve, async (request) => alerts.resolve(request.user.id, request.params.id), {
    owns: ['id'],
  });
};
