import { pageRuleEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { sendChecked } from '../../cloudflare/create-once';
import { route } from '../../endpoint-route';
import type { PageRulesService } from './page-rules.service';

/** Page rules of a zone (spec section 7), read and written live at Cloudflare. */
export const pageRulesRoutes: FastifyPluginAsync<{ pageRules: PageRulesService }> = async (
  app,
  { pageRules },
) => {
  const zoneOnly = { owns: ['zone_id'] } as const;
  // The zone is checked in SQL; the rule id by Cloudflare, which only finds it within that zone (the
  // id is one of Cloudflare's, checked first, so it cannot reach another path such as the zone's).
  const zoneAndRule = { owns: ['zone_id', 'pagerule_id'] } as const;

  route(
    app,
    pageRuleEndpoints.list,
    async (request) => pageRules.list(request.user.id, request.params.zone_id),
    zoneOnly,
  );

  route(
    app,
    pageRuleEndpoints.add,
    async (request, reply) => {
      return sendChecked(
        reply,
        201,
        await pageRules.add(request.user.id, request.params.zone_id, request.body),
      );
    },
    zoneOnly,
  );

  route(
    app,
    pageRuleEndpoints.update,
    async (request, reply) => {
      const { zone_id, pagerule_id } = request.params;
      return sendChecked(
        reply,
        200,
        await pageRules.update(request.user.id, zone_id, pagerule_id, request.body),
      );
    },
    zoneAndRule,
  );

  route(
    app,
    pageRuleEndpoints.remove,
    async (request, reply) => {
      const { zone_id, pagerule_id } = request.params;
      return sendChecked(reply, 204, await pageRules.remove(request.user.id, zone_id, pagerule_id));
    },
    zoneAndRule,
  );
};
