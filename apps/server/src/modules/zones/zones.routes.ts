import { zoneEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { answerOrJob } from '../../jobs/job-answer';
import { noContentRoute, route } from '../../endpoint-route';
import type { PlanLimits } from '../plans';
import type { ZonesService } from './zones.service';
import type { ZonesSyncJobs } from './zones-sync-job';

/** The zones screen's calls (spec section 7). */
export const zonesRoutes: FastifyPluginAsync<{
  zones: ZonesService;
  zonesSyncJobs: ZonesSyncJobs;
  limits: PlanLimits;
}> = async (app, { zones, zonesSyncJobs, limits }) => {
  // The JSON of Zone[], sent as bytes: it is usually served from memory (see ZonesService.listJson).
  route(app, zoneEndpoints.list, async (request, reply) =>
    reply.type('application/json; charset=utf-8').send(await zones.listJson(request.user.id)),
  );

  // One page, built as JSON text by the database (ZonesRepository.pageJsonForUser).
  route(app, zoneEndpoints.page, async (request, reply) =>
    reply.type('application/json; charset=utf-8').send(await zones.pageJson(request.user.id, request.query)),
  );

  route(app, zoneEndpoints.add, async (request) =>
    limits.within(request.user.id, 'zones', 1, () => zones.add(request.user.id, request.body)),
  );

  // A job: a short sync answers as before, a long one 202 with the job to poll.
  route(app, zoneEndpoints.sync, async (request, reply) => {
    return answerOrJob(reply, await zonesSyncJobs.sync(request.user.id));
  });

  noContentRoute(
    app,
    zoneEndpoints.remove,
    (request) => zones.remove(request.user.id, request.params.zone_id),
    { owns: ['zone_id'] },
  );
};
