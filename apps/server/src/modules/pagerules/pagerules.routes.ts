import {
  addPageRuleRequestSchema,
  pageRuleParamsSchema,
  updatePageRuleRequestSchema,
  zoneParamsSchema,
  type PageRule,
} from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ModuleOptions } from '../../app';
import { PageRulesService } from './pagerules.service';

const RULES_PATH = '/api/cloudflare/zones/:zone_id/pagerules';
const RULE_PATH = `${RULES_PATH}/:pagerule_id`;

/** Page rules of a zone (spec section 7), read and written live at Cloudflare. */
export const pagerulesRoutes: FastifyPluginAsync<ModuleOptions> = async (app, { deps }) => {
  const pageRules = new PageRulesService(deps);
  const zoneOnly = { config: { owns: ['zone_id'] } };
  // The zone is checked in SQL; the rule id by Cloudflare, which only finds it within that zone (the
  // id is one of Cloudflare's, checked first, so it cannot reach another path such as the zone's).
  const zoneAndRule = { config: { owns: ['zone_id', 'pagerule_id'] } };

  app.get(RULES_PATH, zoneOnly, async (request): Promise<PageRule[]> => {
    const { zone_id } = zoneParamsSchema.parse(request.params);
    return pageRules.list(request.user.id, zone_id);
  });

  app.post(RULES_PATH, zoneOnly, async (request, reply): Promise<PageRule> => {
    const { zone_id } = zoneParamsSchema.parse(request.params);
    const rule = await pageRules.add(request.user.id, zone_id, addPageRuleRequestSchema.parse(request.body));
    reply.code(201);
    return rule;
  });

  app.put(RULE_PATH, zoneAndRule, async (request): Promise<PageRule> => {
    const { zone_id, pagerule_id } = pageRuleParamsSchema.parse(request.params);
    return pageRules.update(
      request.user.id,
      zone_id,
      pagerule_id,
      updatePageRuleRequestSchema.parse(request.body),
    );
  });

  app.delete(RULE_PATH, zoneAndRule, async (request, reply) => {
    const { zone_id, pagerule_id } = pageRuleParamsSchema.parse(request.params);
    await pageRules.remove(request.user.id, zone_id, pagerule_id);
    return reply.code(204).send();
  });
};
