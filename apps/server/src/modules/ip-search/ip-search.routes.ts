import { ipSearchEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db';
import { route } from '../../endpoint-route';
import { IpSearchService } from './ip-search.service';

/** GET /api/cloudflare/ip-search: "Where is this address?" across the person's lists. */
export const ipSearchRoutes: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  const ipSearch = new IpSearchService(db);
  route(app, ipSearchEndpoints.search, async (request) => ipSearch.search(request.user.id, request.query.q));
};
