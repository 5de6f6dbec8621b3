import { zoneEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ModuleOptions } from '../../app';
import { route } from '../../endpoint-route';
import { ZonesService } from './zones.service';

/** The zones screen's calls (spec section 7). */
export const zonesRoutes: FastifyPluginAsync<ModuleOptions> = async (app, { deps }) => {
  const zones = new ZonesService(deps);

  // The JSON of Zone[], sent as bytes: it is usually served from memory (see ZonesService.listJson).
  route(app, zoneEndpoints.list, async (request, reply) =>
    reply.type('application/json; charset=utf-8').send(await zones.listJson(request.user.id)),
  );

  route(app, zoneEndpoints.add, async (request, reply) => {
    const created = await zones.add(request.user.id, request.body);
    return reply.code(201).send(created);
  });

  route(app, zoneEndpoints.sync, async (request) => zones.sync(request.user.id));

  route(
    app,
    zoneEndpoints.remove,
    async (request, reply) => {
      await zones.remove(request.user.id, request.params.zone_id);
      return reply.code(204).send();
    },
    { owns: ['zone_id'] },
  );
};
