import {
  addFirewallRuleRequestSchema,
  deleteFirewallRuleQuerySchema,
  firewallRuleParamsSchema,
  reorderFirewallRulesRequestSchema,
  updateFirewallRuleRequestSchema,
  zoneParamsSchema,
  type FirewallRule,
  type FirewallRulesResult,
} from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ModuleOptions } from '../../app';
import { FirewallService } from './firewall.service';

const RULES_PATH = '/api/cloudflare/zones/:zone_id/firewall-rules';
const RULE_PATH = `${RULES_PATH}/:rule_id`;

/** Firewall rules of a zone (spec section 7), kept at Cloudflare as WAF custom rules. */
export const firewallRoutes: FastifyPluginAsync<ModuleOptions> = async (app, { deps }) => {
  const firewall = new FirewallService(deps);
  const zoneOnly = { config: { owns: ['zone_id'] } };
  const zoneAndRule = { config: { owns: ['zone_id', 'rule_id'] } };

  app.get(RULES_PATH, zoneOnly, async (request): Promise<FirewallRule[]> => {
    const { zone_id } = zoneParamsSchema.parse(request.params);
    return firewall.list(request.user.id, zone_id);
  });

  app.post(RULES_PATH, zoneOnly, async (request, reply): Promise<FirewallRulesResult> => {
    const { zone_id } = zoneParamsSchema.parse(request.params);
    const [rule] = addFirewallRuleRequestSchema.parse(request.body);
    const result = await firewall.add(request.user.id, zone_id, rule!);
    reply.code(201);
    return { result };
  });

  app.put(RULES_PATH, zoneOnly, async (request): Promise<FirewallRulesResult> => {
    const { zone_id } = zoneParamsSchema.parse(request.params);
    const order = reorderFirewallRulesRequestSchema.parse(request.body);
    return { result: await firewall.reorder(request.user.id, zone_id, order) };
  });

  app.put(RULE_PATH, zoneAndRule, async (request): Promise<FirewallRule> => {
    const { zone_id, rule_id } = firewallRuleParamsSchema.parse(request.params);
    return firewall.update(
      request.user.id,
      zone_id,
      rule_id,
      updateFirewallRuleRequestSchema.parse(request.body),
    );
  });

  app.delete(RULE_PATH, zoneAndRule, async (request, reply) => {
    const { zone_id, rule_id } = firewallRuleParamsSchema.parse(request.params);
    const { filter_id } = deleteFirewallRuleQuerySchema.parse(request.query);
    await firewall.remove(request.user.id, zone_id, rule_id, filter_id);
    return reply.code(204).send();
  });
};
