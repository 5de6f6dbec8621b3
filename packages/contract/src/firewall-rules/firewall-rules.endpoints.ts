import { z } from 'zod';
import {
  addFirewallRuleRequestSchema,
  deleteFirewallRuleQuerySchema,
  firewallRuleParamsSchema,
  firewallRuleSchema,
  firewallRulesResultSchema,
  reorderFirewallRulesRequestSchema,
  updateFirewallRuleRequestSchema,
} from './firewall-rules.schemas';
import { zoneParamsSchema } from '../zones/zones.schemas';
import { cloudflareErrors, endpointGroup, noContentSchema } from '../shared/endpoint';

export const firewallRuleEndpoints = endpointGroup('Firewall rules', {
  list: {
    method: 'GET',
    path: '/api/cloudflare/zones/:zone_id/firewall-rules',
    summary: "A zone's firewall rules (Cloudflare WAF custom rules), by priority.",
    params: zoneParamsSchema,
    responses: { 200: z.array(firewallRuleSchema), ...cloudflareErrors() },
  },
  add: {
    method: 'POST',
    path: '/api/cloudflare/zones/:zone_id/firewall-rules',
    summary: 'Add a rule (a list holding the one new rule); answers the whole list.',
    params: zoneParamsSchema,
    body: addFirewallRuleRequestSchema,
    responses: { 201: firewallRulesResultSchema, ...cloudflareErrors() },
  },
  reorder: {
    method: 'PUT',
    path: '/api/cloudflare/zones/:zone_id/firewall-rules',
    summary: "Put the zone's rules in a new order; answers the whole list.",
    params: zoneParamsSchema,
    body: reorderFirewallRulesRequestSchema,
    responses: { 200: firewallRulesResultSchema, ...cloudflareErrors() },
  },
  update: {
    method: 'PUT',
    path: '/api/cloudflare/zones/:zone_id/firewall-rules/:rule_id',
    summary: 'Edit, pause or resume a rule.',
    params: firewallRuleParamsSchema,
    body: updateFirewallRuleRequestSchema,
    responses: { 200: firewallRuleSchema, ...cloudflareErrors() },
  },
  remove: {
    method: 'DELETE',
    path: '/api/cloudflare/zones/:zone_id/firewall-rules/:rule_id',
    summary: 'Deletes a firewall rule at Cloudflare.',
    destructive: 'cloudflare',
    params: firewallRuleParamsSchema,
    query: deleteFirewallRuleQuerySchema,
    responses: { 204: noContentSchema, ...cloudflareErrors() },
  },
});
