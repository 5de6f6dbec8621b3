import { rulesOverviewEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../endpoint-route';
import type { RulesOverviewService } from './rules-overview.service';

/** The rules overview (/cloudflare/rules). Zone ids come in the query: each is checked in SQL. */
export const rulesOverviewRoutes: FastifyPluginAsync<{ rulesOverview: RulesOverviewService }> = async (
  app,
  { rulesOverview },
) => {
  route(app, rulesOverviewEndpoints.get, async (request) =>
    rulesOverview.read(request.user.id, request.query.zone_ids, request.query.search),
  );
};
