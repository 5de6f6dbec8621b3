import { firewallRuleEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { sendChecked } from '../../cloudflare/create-once';
import { route } from '../../endpoint-route';
import type { FirewallRulesService } from './firewall-rules.service';

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

  route(
    app,
    firewallRuleEndpoints.add,
    async (request, reply) => {
      const [rule] = request.body;
      const { value: result, outcome } = await firewall.add(request.user.id, request.params.zone_id, rule!);
      return sendChecked(reply, 201, { value: { result }, outcome });
    },
    zoneOnly,
  );

  route(
    app,
    firewallRuleEndpoints.reorder,
    async (request, reply) => {
      const { value: result, outcome } = await firewall.reorder(
        request.user.id,
        request.params.zone_id,
        request.body,
      );
      return sendChecked(reply, 200, { value: { result }, outcome });
    },
    zoneOnly,
  );

  route(
    app,
    firewallRuleEndpoints.update,
    async (request, reply) => {
      const { zone_id, rule_id } = request.params;
      return sendChecked(reply, 200, await firewall.update(request.user.id, zone_id, rule_id, request.body));
    },
    zoneAndRule,
  );

  route(
    app,
    firewallRuleEndpoints.remove,
    async (request, reply) => {
      const { zone_id, rule_id } = request.params;
      return sendChecked(
        reply,
        204,
        await firewall.remove(request.user.id, zone_id, rule_id, request.query.filter_id),
      );
    },
    zoneAndRule,
  );
};
