import { ipSearchEndpoints, listCapacityEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db';
import { route } from '../../endpoint-route';
import { itemActorOf } from '../auth';
import { ListCapacity } from '../ban-list-mirror';
import { refuseBeyondPlan } from '../plans';
import type { IpSearchActions } from './ip-search-actions';
import type { IpSearchService } from './ip-search.service';

/**
 * "Where is this address?" across the person's lists, its actions (Ban everywhere, Remove from lists:
 * jobs per account) and the accounts' Lists capacity.
 */
export const ipSearchRoutes: FastifyPluginAsync<{
  db: Db;
  search: IpSearchService;
  actions: IpSearchActions;
}> = async (app, { db, search, actions }) => {
  const capacity = new ListCapacity(db);
  route(app, ipSearchEndpoints.search, async (request, reply) => {
    // Already JSON: kept as such for the lists' version it was read at (ip-search.service.ts).
    reply.type('application/json; charset=utf-8');
    return search.searchJson(request.user.id, request.query.q);
  });
  // The lists are named in the body: each is found through the person's accounts (another's: 404).
  route(app, ipSearchEndpoints.ban, async (request, reply) => {
    // One item a list: refused (403) past the person's plan before any job is queued.
    await refuseBeyondPlan(db, request.user.id, 'list_items', request.body.list_ids.length);
    const { ended, ...answer } = await actions.ban(itemActorOf(request), request.body);
    return reply.code(ended ? 200 : 202).send(answer);
  });
  route(app, ipSearchEndpoints.remove, async (request, reply) => {
    const { ended, ...answer } = await actions.remove(itemActorOf(request), request.body);
    return reply.code(ended ? 200 : 202).send(answer);
  });
  route(app, listCapacityEndpoints.list, async (request) => ({
    accounts: await capacity.forUser(request.user.id),
  }));
  route(
    app,
    listCapacityEndpoints.setPlan,
    async (request) => capacity.setPlan(request.user.id, request.params.account_id, request.body.plan),
    { owns: ['account_id'] },
  );
};
