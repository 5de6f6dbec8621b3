import { z } from 'zod';
import { findFirewallExpressionProblem, firewallExpressionMessage } from './firewall-expression';
import { keysOf } from '../shared/closed-set';
import { cloudflareIdSchema, LOOKUP_ID_MAX } from '../shared/ids';
import { zoneParamsSchema } from '../zones/zones.schemas';
import LABELS from '../shared/labels.en.json';

/**
 * Firewall rules are the console's view of Cloudflare's WAF custom rules (Rulesets API, phase
 * http_request_firewall_custom); apps/server/src/modules/firewall/README.md has the mapping.
 */

/** Cloudflare's longest rule expression. */
export const FIREWALL_EXPRESSION_MAX_LENGTH = 4096;
export const FIREWALL_DESCRIPTION_MAX_LENGTH = 500;
/** Custom rules a zone can hold on Cloudflare's largest plan (Enterprise; Free 5, Pro 20, Business 100). */
export const FIREWALL_RULES_MAX = 1000;

/** Where the modal's expression help link goes. */
export const RULES_LANGUAGE_URL = 'https://developers.cloudflare.com/ruleset-engine/rules-language/';

/**
 * The spec's actions, plus `log`: an Enterprise action Cloudflare may already hold in the zone, shown
 * and kept as it is but never offered for a new rule. Each with what the console calls it.
 */
export const FIREWALL_ACTION_LABELS = LABELS.firewallRuleActions;
export type FirewallRuleAction = keyof typeof FIREWALL_ACTION_LABELS;
export const FIREWALL_RULE_ACTIONS = keysOf(FIREWALL_ACTION_LABELS);

/** The spec's actions: those a new rule may take. */
export type FirewallAction = Exclude<FirewallRuleAction, 'log'>;
export const FIREWALL_ACTIONS: readonly FirewallAction[] = FIREWALL_RULE_ACTIONS.filter(
  (action): action is FirewallAction => action !== 'log',
);

export const DEFAULT_FIREWALL_ACTION: FirewallAction = 'block';

export const firewallRuleActionSchema = z.enum(FIREWALL_RULE_ACTIONS, {
  error: `Action must be one of ${FIREWALL_ACTIONS.join(', ')}.`,
});

/** A firewall rule as the console shows it. */
export const firewallRuleSchema = z.object({
  /** The custom rule's id at Cloudflare. */
  id: z.string(),
  description: z.string(),
  action: firewallRuleActionSchema,
  /** The rule is disabled at Cloudflare. */
  paused: z.boolean(),
  /** 1-based position in the zone's custom rules: 1 is evaluated first. */
  priority: z.number().int().min(1),
  /** The rule's match; its id is the rule's id (custom rules have no separate filter object). */
  filter: z.object({ id: z.string(), expression: z.string(), paused: z.boolean() }),
});
export type FirewallRule = z.infer<typeof firewallRuleSchema>;

const descriptionSchema = z
  .string({ error: 'Description is required.' })
  .trim()
  .min(1, 'Description is required.')
  .max(
    FIREWALL_DESCRIPTION_MAX_LENGTH,
    `Description must be at most ${FIREWALL_DESCRIPTION_MAX_LENGTH} characters.`,
  );

/** An id the browser repeats from a rule it shows: compared with the zone's rules, never sent on. */
const shownIdSchema = z.string().max(LOOKUP_ID_MAX, 'Not a firewall rule id.');

const expressionSchema = z
  .string({ error: 'Expression is required.' })
  .trim()
  .min(1, 'Expression is required.')
  .max(
    FIREWALL_EXPRESSION_MAX_LENGTH,
    `Expression must be at most ${FIREWALL_EXPRESSION_MAX_LENGTH} characters.`,
  );

/**
 * A rule as the browser sends it to add or edit: ids and priority may ride along (the browser sends
 * the rule it shows) and are ignored; `paused` decides whether the rule is enabled.
 */
export const firewallRuleInputSchema = z.object({
  id: shownIdSchema.optional(),
  description: descriptionSchema,
  action: firewallRuleActionSchema.default(DEFAULT_FIREWALL_ACTION),
  paused: z.boolean({ error: 'paused must be true or false.' }).default(false),
  priority: z.number().optional(),
  filter: z.object(
    {
      id: shownIdSchema.optional(),
      expression: expressionSchema,
      paused: z.boolean().optional(),
    },
    { error: 'filter with an expression is required.' },
  ),
});
export type FirewallRuleInput = z.input<typeof firewallRuleInputSchema>;
export type FirewallRuleFields = z.output<typeof firewallRuleInputSchema>;

/**
 * The problem with a rule's expression in the Rules language, as one sentence, or null. An expression
 * equal to `kept` (the one Cloudflare already holds for the rule being edited) is Cloudflare's to
 * judge: pausing or renaming a rule never fails on a field this console does not know yet.
 */
export function firewallExpressionProblem(expression: string, kept?: string): string | null {
  if (kept !== undefined && expression === kept) return null;
  const problem = findFirewallExpressionProblem(expression);
  return problem && firewallExpressionMessage(problem);
}

/**
 * The rule dialog's check: the request's fields and the expression's grammar (the server checks the
 * same in its service, so that a rule sent by any client is held to it).
 */
export function firewallRuleFormSchema(keptExpression?: string) {
  return firewallRuleInputSchema.superRefine((rule, ctx) => {
    const problem = firewallExpressionProblem(rule.filter.expression, keptExpression);
    if (problem) ctx.addIssue({ code: 'custom', path: ['filter', 'expression'], message: problem });
  });
}

/** POST /api/cloudflare/zones/{zone_id}/firewall-rules: a list holding the one new rule. */
export const addFirewallRuleRequestSchema = z
  .array(firewallRuleInputSchema, { error: 'Send a list holding the new rule.' })
  .length(1, 'Send a list holding exactly one new rule.');

/** PUT /api/cloudflare/zones/{zone_id}/firewall-rules/{rule_id}: the edited (or paused) rule. */
export const updateFirewallRuleRequestSchema = firewallRuleInputSchema;

/**
 * PUT /api/cloudflare/zones/{zone_id}/firewall-rules: every rule of the zone, priorities renumbered
 * in the new order. Only the order is taken; each rule keeps its definition at Cloudflare. The length
 * cap comes first: Zod then refuses a longer list before looking at any rule in it.
 */
export const reorderFirewallRulesRequestSchema = z
  .array(
    z.object({
      id: z
        .string({ error: 'Every rule needs its id.' })
        .min(1, 'Every rule needs its id.')
        .max(LOOKUP_ID_MAX, 'Not a firewall rule id.'),
      priority: z
        .number({ error: 'Every rule needs a priority.' })
        .int()
        .min(1, 'Priorities start at 1.')
        .max(FIREWALL_RULES_MAX, `Priorities end at ${FIREWALL_RULES_MAX}.`),
    }),
    { error: 'Send the whole list of rules.' },
  )
  .max(FIREWALL_RULES_MAX, `A zone holds at most ${FIREWALL_RULES_MAX} firewall rules.`)
  .refine(
    (rules) => new Set(rules.map((rule) => rule.id)).size === rules.length,
    'A rule appears twice in the list.',
  );
export type ReorderFirewallRulesRequest = z.infer<typeof reorderFirewallRulesRequestSchema>;

/** The answer of adding a rule and of reordering: the zone's whole list, by priority. */
export const firewallRulesResultSchema = z.object({ result: z.array(firewallRuleSchema) });
export type FirewallRulesResult = z.infer<typeof firewallRulesResultSchema>;

/** DELETE .../firewall-rules/{rule_id}?filter_id=: the rule's filter id (which is the rule id). */
export const deleteFirewallRuleQuerySchema = z.object({
  filter_id: z
    .string({ error: 'filter_id is required.' })
    .min(1, 'filter_id is required.')
    .max(LOOKUP_ID_MAX, "filter_id must be the rule's filter id."),
});

/** Path params of .../firewall-rules/{rule_id}. */
export const firewallRuleParamsSchema = zoneParamsSchema.extend({
  rule_id: cloudflareIdSchema('firewall rule'),
});
