import { randomBytes } from 'node:crypto';
import {
  firewallExpressionProblem,
  type FirewallRule,
  type FirewallRuleFields,
  type ReorderFirewallRulesRequest,
} from '@guardian/contract';
import Cloudflare from 'cloudflare';
import type { AppDeps } from '../../deps';
import { AppError } from '../../app-error';
import { checkedAfterLoss, type Checked } from '../../cloudflare/create-once';
import { requireOwnedZone } from '../zones/owned-zone';
import { CustomRules, definitionOf, type CustomRule, type CustomRuleset } from './custom-rules';
import { editedCustomRule, newCustomRule, toFirewallRule, toFirewallRules } from './firewall-rule-mapping';

/**
 * Refuses an expression the Rules language cannot read before Cloudflare sees it, marking the dialog's
 * field. The one Cloudflare already holds for an edited rule (`kept`) is left to Cloudflare.
 */
function checkExpression(expression: string, kept?: string): void {
  const problem = firewallExpressionProblem(expression, kept);
  if (problem) {
    throw new AppError('BAD_REQUEST', problem, {
      errors: [{ code: 'BAD_REQUEST', message: problem, field: 'filter.expression' }],
    });
  }
}

const ruleNotFound = () => new AppError('NOT_FOUND', 'Firewall rule not found.');

/** Firewall rules of a user's zone, read and written live at Cloudflare as WAF custom rules. */
export class FirewallService {
  constructor(private readonly deps: AppDeps) {}

  private async customRules(userId: number, zoneId: string): Promise<CustomRules> {
    const { cf, zone } = await requireOwnedZone(this.deps, userId, zoneId);
    return new CustomRules(cf, zone.zoneId);
  }

  /** The ruleset holding the rule, and the rule; another zone's rule or an unknown id is NOT_FOUND. */
  private async findRule(
    rules: CustomRules,
    ruleId: string,
  ): Promise<{ ruleset: CustomRuleset; rule: CustomRule }> {
    const ruleset = await rules.get();
    const rule = ruleset?.rules.find((candidate) => candidate.id === ruleId);
    if (!ruleset || !rule) throw ruleNotFound();
    return { ruleset, rule };
  }

  async list(userId: number, zoneId: string): Promise<FirewallRule[]> {
    const ruleset = await (await this.customRules(userId, zoneId)).get();
    return toFirewallRules(ruleset?.rules ?? []);
  }

  /**
   * Adds the rule last (Cloudflare's default place); the zone's first rule creates its entrypoint.
   * The rule carries a fresh `ref`, unique in the ruleset: when Cloudflare applied the add but its
   * answer was lost, the client's retry is refused as a duplicate ref instead of adding a second
   * copy, and finding that ref at Cloudflare (one read of the ruleset) proves the add happened; the
   * answer then says so.
   */
  async add(userId: number, zoneId: string, fields: FirewallRuleFields): Promise<Checked<FirewallRule[]>> {
    checkExpression(fields.filter.expression);
    const rules = await this.customRules(userId, zoneId);
    const ruleset = await rules.get();
    const rule = { ...newCustomRule(fields), ref: randomBytes(16).toString('hex') };
    try {
      const updated = ruleset ? await rules.append(ruleset.id, rule) : await rules.replaceAll([rule]);
      return { value: toFirewallRules(updated.rules) };
    } catch (err) {
      const now = await rules.get().catch(() => null);
      if (now?.rules.some((candidate) => candidate.ref === rule.ref))
        return { value: toFirewallRules(now.rules), outcome: checkedAfterLoss('the rule was added') };
      throw err;
    }
  }

  /** Edits a rule in place (its position stays): description, action, expression and paused. */
  async update(
    userId: number,
    zoneId: string,
    ruleId: string,
    fields: FirewallRuleFields,
  ): Promise<FirewallRule> {
    const rules = await this.customRules(userId, zoneId);
    const { ruleset, rule } = await this.findRule(rules, ruleId);
    checkExpression(fields.filter.expression, rule.expression);
    const updated = await rules.edit(ruleset.id, ruleId, editedCustomRule(rule, fields));
    const index = updated.rules.findIndex((candidate) => candidate.id === ruleId);
    if (index < 0) throw ruleNotFound();
    return toFirewallRule(updated.rules[index]!, index);
  }

  /**
   * Saves a new order as one ruleset write, so it happens whole or not at all. Only the order is taken
   * from the request: each rule keeps its definition at Cloudflare. The request must name exactly the
   * zone's rules, or someone changed them meanwhile.
   */
  async reorder(userId: number, zoneId: string, order: ReorderFirewallRulesRequest): Promise<FirewallRule[]> {
    const rules = await this.customRules(userId, zoneId);
    const ruleset = await rules.get();
    const current = ruleset?.rules ?? [];
    const byId = new Map(current.map((rule) => [rule.id, rule]));
    if (order.length !== current.length || order.some((entry) => !byId.has(entry.id))) {
      throw new AppError(
        'CONFLICT',
        'The firewall rules changed since they were loaded. Reload the list and try again.',
      );
    }
    const reordered = order
      .map((entry, index) => ({ ...entry, index }))
      .sort((a, b) => a.priority - b.priority || a.index - b.index)
      .map((entry) => byId.get(entry.id)!);
    if (!ruleset || reordered.every((rule, index) => rule === current[index]))
      return toFirewallRules(current);
    const updated = await rules.replaceAll(reordered.map(definitionOf));
    return toFirewallRules(updated.rules);
  }

  /** The filter id must be the rule's: a console firewall rule's filter is the custom rule itself. */
  async remove(userId: number, zoneId: string, ruleId: string, filterId: string): Promise<void> {
    const rules = await this.customRules(userId, zoneId);
    if (filterId !== ruleId) throw new AppError('BAD_REQUEST', "filter_id must be the rule's filter id.");
    const { ruleset } = await this.findRule(rules, ruleId);
    try {
      await rules.remove(ruleset.id, ruleId);
    } catch (err) {
      // A retried delete whose first attempt Cloudflare applied (the answer was lost) finds no rule.
      const gone =
        err instanceof Cloudflare.NotFoundError && !(await rules.get())?.rules.some((r) => r.id === ruleId);
      if (!gone) throw err;
    }
  }
}
