import { banListEndpoints, banListItemEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ModuleOptions } from '../../app';
import { CLOUDFLARE_DEFAULTS } from '../../cloudflare';
import { route } from '../../endpoint-route';
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

  route(app, banListEndpoints.list, async (request) => banLists.list(request.user.id));

  route(app, banListEndpoints.add, async (request, reply) => {
    const list = await banLists.create(request.user.id, request.body);
    return reply.code(201).send(list);
  });

  route(app, banListEndpoints.update, async (request) => banLists.update(request.user.id));

  route(app, banListEndpoints.clean, async (request) => banLists.clean(request.user.id));

  route(
    app,
    banListEndpoints.remove,
    async (request, reply) => {
      await banLists.delete(request.user.id, request.params.id);
      return reply.code(204).send();
    },
    { owns: ['id'] },
  );

  route(
    app,
    banListItemEndpoints.page,
    async (request, reply) => {
      // Already JSON: the same page is often asked for again, so it is serialised once.
      reply.type('application/json; charset=utf-8');
      return items.pageJson(request.user.id, request.params.list_id, request.query);
    },
    { owns: ['list_id'] },
  );

  route(
    app,
    banListItemEndpoints.add,
    async (request, reply) => {
      const item = await items.add(request.user.id, request.params.list_id, request.body);
      return reply.code(201).send(item);
    },
    { owns: ['list_id'] },
  );

  route(
    app,
    banListItemEndpoints.remove,
    async (request, reply) => {
      await items.delete(request.user.id, request.params.list_id, request.params.item_id);
      return reply.code(204).send();
    },
    { owns: ['list_id', 'item_id'] },
  );

  route(
    app,
    banListItemEndpoints.sync,
    async (request) => items.sync(request.user.id, request.params.list_id),
    { owns: ['list_id'] },
  );
};
