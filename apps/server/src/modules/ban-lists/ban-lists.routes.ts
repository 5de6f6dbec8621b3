import { banListEndpoints, banListItemEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { answerOrJob } from '../../jobs/job-answer';
import { checkedRoute, noContentRoute, route } from '../../endpoint-route';
import type { BanListItemsService } from '../ban-list-items';
import type { BanListsService } from './ban-lists.service';
import type { BanListSyncJobs } from '../ban-list-mirror';
import type { BanListsJobs } from './ban-lists-jobs';
import { sendBanListExport, type ExportSource } from '../ban-list-export';
import { itemActorOf } from '../auth';
import type { PlanLimits } from '../plans';

export interface BanListRoutesOptions {
  banLists: BanListsService;
  banListItems: BanListItemsService;
  banListSyncJobs: BanListSyncJobs;
  banListsJobs: BanListsJobs;
  banListExport: ExportSource;
  limits: PlanLimits;
}

/** Ban lists and their items under /api/cloudflare/banlists. */
export const banListsRoutes: FastifyPluginAsync<BanListRoutesOptions> = async (
  app,
  { banLists, banListItems: items, banListSyncJobs, banListsJobs, banListExport, limits },
) => {
  route(app, banListEndpoints.list, async (request) => banLists.list(request.user.id));

  checkedRoute(app, banListEndpoints.add, ({ user, body }) =>
    limits.within(user.id, 'lists', 1, () => banLists.create(user.id, body)),
  );

  // Jobs: a short one answers the lists as before, a long one 202 with the job to poll.
  route(app, banListEndpoints.update, async (request, reply) => {
    return answerOrJob(reply, await banListsJobs.update(request.user.id));
  });

  route(app, banListEndpoints.clean, async (request, reply) => {
    return answerOrJob(reply, await banListsJobs.clean(request.user.id));
  });

  route(
    app,
    banListEndpoints.setPurpose,
    async (request) => banLists.setPurpose(request.user.id, request.params.id, request.body.purpose),
    { owns: ['id'] },
  );

  checkedRoute(app, banListEndpoints.remove, ({ user, params }) => banLists.delete(user.id, params.id), {
    owns: ['id'],
  });

  route(
    app,
    banListItemEndpoints.page,
    (request, reply) => {
      // Already JSON: the same page is often asked for again, so it is serialised once, and a kept
      // one is answered without a promise.
      reply.type('application/json; charset=utf-8');
      const { user, params, query } = request;
      return (
        items.keptPageJson(user.id, params.list_id, query) ?? items.pageJson(user.id, params.list_id, query)
      );
    },
    { owns: ['list_id'] },
  );

  route(
    app,
    banListItemEndpoints.count,
    async (request) => items.count(request.user.id, request.params.list_id, request.query.search),
    { owns: ['list_id'] },
  );

  route(
    app,
    banListItemEndpoints.export,
    async (request, reply) =>
      sendBanListExport(reply, banListExport, request.user.id, request.params.list_id, request.query),
    { owns: ['list_id'] },
  );

  route(
    app,
    banListItemEndpoints.add,
    async (request) =>
      limits.within(request.user.id, 'list_items', 1, () =>
        items.add(itemActorOf(request), request.params.list_id, request.body),
      ),
    { owns: ['list_id'] },
  );

  noContentRoute(
    app,
    banListItemEndpoints.remove,
    (request) => items.delete(itemActorOf(request), request.params.list_id, request.params.item_id),
    { owns: ['list_id', 'item_id'] },
  );

  route(
    app,
    banListItemEndpoints.history,
    async (request) => items.history(request.user.id, request.params.list_id, request.params.item_id),
    { owns: ['list_id', 'item_id'] },
  );

  route(
    app,
    banListItemEndpoints.changeExpiry,
    async (request) =>
      items.changeExpiry(
        itemActorOf(request),
        request.params.list_id,
        request.params.item_id,
        request.body.expires,
      ),
    { owns: ['list_id', 'item_id'] },
  );

  route(
    app,
    banListItemEndpoints.sync,
    async (request, reply) => {
      // A job: a short sync answers the list as before, a long one 202 with the job to poll.
      return answerOrJob(reply, await banListSyncJobs.sync(request.user.id, request.params.list_id));
    },
    { owns: ['list_id'] },
  );
};
