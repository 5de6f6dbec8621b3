import { firewallRuleEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Checked } from '../../cloudflare/create-once';
import { checkedRoute, route } from '../../endpoint-route';
import type { FirewallRulesService } from './firewall-rules.service';

/** The zone's rules after a change, answered as `{ result }` (Cloudflare's own shape). */
const asResult = <T>({ value: result, outcome }: Checked<T>): Checked<{ result: T }> => ({
  value: { result },
  outcome,
});

/** Firewall rules of a zone (spec section 7), kept at Cloudflare as WAF custom rules. */
export const firewallRulesRoutes: FastifyPluginAsync<{ firewall: FirewallRulesService }> = async (
  app,
  { firewall },
) => {
  const zoneOnly = { owns: ['zone_id'] } as const;
  const zoneAndRule = { owns: ['zone_id', 'rule_id'] } as const;

  route(
    app,
    firewallRuleEndpoints.list,
    async (request) => firewall.list(request.user.id, request.params.zone_id),
    zoneOnly,
  );

  checkedRoute(
    app,
    firewallRuleEndpoints.add,
    async ({ user, params, body: [rule] }) => asResult(await firewall.add(user.id, params.zone_id, rule!)),
    zoneOnly,
  );

  checkedRoute(
    app,
    firewallRuleEndpoints.reorder,
    async ({ user, params, body }) => asResult(await firewall.reorder(user.id, params.zone_id, body)),
    zoneOnly,
  );

  checkedRoute(
    app,
    firewallRuleEndpoints.update,
    ({ user, params, body }) => firewall.update(user.id, params.zone_id, params.rule_id, body),
    zoneAndRule,
  );

  checkedRoute(
    app,
    firewallRuleEndpoints.remove,
    (request) =>
      firewall.remove(
        request.user.id,
        request.params.zone_id,
        request.params.rule_id,
        request.query.filter_id,
        // After the delete the rule is gone: the trail names it by what the service read first.
        (rule) => (request.auditEffects = { description: rule.description }),
      ),
    zoneAndRule,
  );
};
