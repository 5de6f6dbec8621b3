import {
  FIREWALL_RULE_ACTIONS,
  type FirewallRule,
  type FirewallRuleAction,
  type FirewallRuleFields,
} from '@guardian/contract';
import { definitionOf, type CustomRule, type CustomRuleDefinition } from './custom-rules';

/**
 * The console's firewall rule is a WAF custom rule seen through the spec's fields (README.md here
 * explains each choice): priority is the position, paused is !enabled, the filter is the rule itself.
 */

/** `allow`: stop evaluating the zone's custom rules; later security phases still run. */
const SKIP_REMAINING_CUSTOM_RULES = { ruleset: 'current' };

/**
 * `skip`: the old Firewall Rules "bypass": leave out the security features that run after custom
 * rules (rate limiting, managed rules, Super Bot Fight Mode); the remaining custom rules still run.
 */
const SKIP_LATER_SECURITY_PHASES = {
  phases: ['http_ratelimit', 'http_request_firewall_managed', 'http_request_sbfm'],
};

const AT_CLOUDFLARE: Record<FirewallRuleAction, Pick<CustomRule, 'action' | 'action_parameters'>> = {
  block: { action: 'block' },
  challenge: { action: 'challenge' },
  js_challenge: { action: 'js_challenge' },
  managed_challenge: { action: 'managed_challenge' },
  allow: { action: 'skip', action_parameters: SKIP_REMAINING_CUSTOM_RULES },
  skip: { action: 'skip', action_parameters: SKIP_LATER_SECURITY_PHASES },
  log: { action: 'log' },
};

function skipsOnlyRemainingCustomRules(parameters: Record<string, unknown> | undefined): boolean {
  return parameters !== undefined && Object.keys(parameters).length === 1 && parameters.ruleset === 'current';
}

function isConsoleAction(action: string): action is FirewallRuleAction {
  return (FIREWALL_RULE_ACTIONS as readonly string[]).includes(action);
}

/** The console's action of a custom rule, whoever wrote it (the console, the dashboard, Terraform). */
export function consoleActionOf(rule: Pick<CustomRule, 'action' | 'action_parameters'>): FirewallRuleAction {
  if (rule.action === 'skip') return skipsOnlyRemainingCustomRules(rule.action_parameters) ? 'allow' : 'skip';
  // The custom-rules phase allows no actions but these; Cloudflare refuses any other.
  if (!isConsoleAction(rule.action) || rule.action === 'allow') {
    throw new Error(`Cloudflare answered a custom rule with the unexpected action "${rule.action}".`);
  }
  return rule.action;
}

export function toFirewallRule(rule: CustomRule, index: number): FirewallRule {
  const paused = rule.enabled === false;
  return {
    id: rule.id,
    description: rule.description ?? '',
    action: consoleActionOf(rule),
    paused,
    priority: index + 1,
    filter: { id: rule.id, expression: rule.expression, paused },
  };
}

export function toFirewallRules(rules: CustomRule[]): FirewallRule[] {
  return rules.map(toFirewallRule);
}

/** A new custom rule from the console's fields. */
export function newCustomRule(fields: FirewallRuleFields): CustomRuleDefinition {
  return {
    ...AT_CLOUDFLARE[fields.action],
    expression: fields.filter.expression,
    description: fields.description,
    enabled: !fields.paused,
  };
}

/**
 * The whole new definition of an edited rule. Unchanged in the console's terms, the action keeps its
 * parameters at Cloudflare (a block's custom response, a skip of chosen products); changed, it gets
 * the mapping's. Everything the console does not show (ref, logging...) stays as it was.
 */
export function editedCustomRule(current: CustomRule, fields: FirewallRuleFields): CustomRuleDefinition {
  const { id: _id, action_parameters: currentParameters, ...kept } = definitionOf(current);
  const action =
    consoleActionOf(current) === fields.action
      ? { action: current.action, action_parameters: currentParameters }
      : AT_CLOUDFLARE[fields.action];
  const rule: CustomRuleDefinition = {
    ...kept,
    ...action,
    expression: fields.filter.expression,
    description: fields.description,
    enabled: !fields.paused,
  };
  if (rule.action_parameters === undefined) delete rule.action_parameters;
  return rule;
}
