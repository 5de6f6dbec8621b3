import { pageRuleEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { checkedRoute, route } from '../../endpoint-route';
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

  checkedRoute(
    app,
    pageRuleEndpoints.add,
    ({ user, params, body }) => pageRules.add(user.id, params.zone_id, body),
    zoneOnly,
  );

  checkedRoute(
    app,
    pageRuleEndpoints.update,
    ({ user, params, body }) => pageRules.update(user.id, params.zone_id, params.pagerule_id, body),
    zoneAndRule,
  );

  checkedRoute(
    app,
    pageRuleEndpoints.remove,
    (request) =>
      pageRules.remove(
        request.user.id,
        request.params.zone_id,
        request.params.pagerule_id,
        // After the delete the rule is gone: the trail names it by what the service read first.
        (rule) => (request.auditEffects = { url: rule.url }),
      ),
    zoneAndRule,
  );
};
