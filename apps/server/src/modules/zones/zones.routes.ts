import {
  addZoneRequestSchema,
  zoneParamsSchema,
  type AddZoneResponse,
  type SyncZonesResponse,
} from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ModuleOptions } from '../../app';
import { ZonesService } from './zones.service';

/** The zones screen's calls (spec section 7). */
export const zonesRoutes: FastifyPluginAsync<ModuleOptions> = async (app, { deps }) => {
  const zones = new ZonesService(deps);

  // The JSON of Zone[], sent as bytes: it is usually served from memory (see ZonesService.listJson).
  app.get('/api/cloudflare/zones', async (request, reply) =>
    reply.type('application/json; charset=utf-8').send(await zones.listJson(request.user.id)),
  );

  app.post('/api/cloudflare/zones', async (request, reply): Promise<AddZoneResponse> => {
    const created = await zones.add(request.user.id, addZoneRequestSchema.parse(request.body));
    reply.code(201);
    return created;
  });

  app.post('/api/cloudflare/zones/sync', async (request): Promise<SyncZonesResponse> =>
    zones.sync(request.user.id),
  );

  app.delete('/api/cloudflare/zones/:zone_id', { config: { owns: ['zone_id'] } }, async (request, reply) => {
    const { zone_id } = zoneParamsSchema.parse(request.params);
    await zones.remove(request.user.id, zone_id);
    return reply.code(204).send();
  });
};
