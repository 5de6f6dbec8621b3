import {
  addBanListItemRequestSchema,
  addBanListRequestSchema,
  banListIdParamsSchema,
  banListItemParamsSchema,
  banListItemsQuerySchema,
  banListParamsSchema,
  type BanList,
  type BanListItem,
} from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ModuleOptions } from '../../app';
import { CLOUDFLARE_DEFAULTS } from '../../cloudflare';
import { Leases } from '../../db/leases';
import { BanListAccess } from './ban-list-access';
import { BanListItemsService } from './ban-list-items.service';
import { BanListsService } from './banlists.service';
import { KeyedLock } from './keyed-lock';

/** Ban lists and their items under /api/cloudflare/banlists. */
export const banlistsRoutes: FastifyPluginAsync<ModuleOptions> = async (app, { config, deps }) => {
  const access = new BanListAccess(
    deps,
    new KeyedLock(),
    new Leases(deps.db),
    config.cloudflare.deadlineMs ?? CLOUDFLARE_DEFAULTS.deadlineMs,
  );
  const banLists = new BanListsService(access);
  const items = new BanListItemsService(access);

  app.get('/api/cloudflare/banlists', async (request): Promise<BanList[]> => banLists.list(request.user.id));

  app.post('/api/cloudflare/banlists', async (request, reply): Promise<BanList> => {
    const list = await banLists.create(request.user.id, addBanListRequestSchema.parse(request.body));
    reply.code(201);
    return list;
  });

  app.post('/api/cloudflare/banlists/update', async (request): Promise<BanList[]> =>
    banLists.update(request.user.id),
  );

  app.post('/api/cloudflare/banlists/clean', async (request): Promise<BanList[]> =>
    banLists.clean(request.user.id),
  );

  app.delete('/api/cloudflare/banlists/:id', { config: { owns: ['id'] } }, async (request, reply) => {
    const { id } = banListIdParamsSchema.parse(request.params);
    await banLists.delete(request.user.id, id);
    reply.code(204);
  });

  app.get(
    '/api/cloudflare/banlists/:list_id/items',
    { config: { owns: ['list_id'] } },
    async (request, reply) => {
      const { list_id } = banListParamsSchema.parse(request.params);
      const query = banListItemsQuerySchema.parse(request.query);
      // Already JSON: the same page is often asked for again, so it is serialised once.
      reply.type('application/json; charset=utf-8');
      return items.pageJson(request.user.id, list_id, query);
    },
  );

  app.post(
    '/api/cloudflare/banlists/:list_id/items',
    { config: { owns: ['list_id'] } },
    async (request, reply): Promise<BanListItem> => {
      const { list_id } = banListParamsSchema.parse(request.params);
      const item = await items.add(request.user.id, list_id, addBanListItemRequestSchema.parse(request.body));
      reply.code(201);
      return item;
    },
  );

  app.delete(
    '/api/cloudflare/banlists/:list_id/items/:item_id',
    { config: { owns: ['list_id', 'item_id'] } },
    async (request, reply) => {
      const { list_id, item_id } = banListItemParamsSchema.parse(request.params);
      await items.delete(request.user.id, list_id, item_id);
      reply.code(204);
    },
  );

  app.post(
    '/api/cloudflare/banlists/:list_id/sync',
    { config: { owns: ['list_id'] } },
    async (request): Promise<BanList> => {
      const { list_id } = banListParamsSchema.parse(request.params);
      return items.sync(request.user.id, list_id);
    },
  );
};
