import { randomBytes } from 'node:crypto';
import {
  firewallExpressionProblem,
  type FirewallRule,
  type FirewallRuleFields,
  type ReorderFirewallRulesRequest,
} from '@guardian/contract';
import type { AppDeps } from '../../deps';
import { AppError } from '../../app-error';
import { isCloudflareNotFound } from '../../cloudflare';
import { changeChecked, checkedAfterLoss, outcomeUnknown, type Checked } from '../../cloudflare/create-once';
import type { OwnedZones } from '../zones';
import { CustomRules, definitionOf, type CustomRule, type CustomRuleset } from './custom-rules';
import { listPurposesOf, type ListPurposesRead } from './list-uses';
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
export class FirewallRulesService {
  constructor(
    private readonly deps: AppDeps,
    private readonly ownedZones: OwnedZones,
    /** Told what the rules read say the zone's account's ban lists are for (issue 35 item 9). */
    private readonly purposesRead: ListPurposesRead = async () => {},
  ) {}

  private async customRules(userId: number, zoneId: string): Promise<CustomRules> {
    const { cf, zone } = await this.ownedZones.require(userId, zoneId);
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
    const { cf, zone, account } = await this.ownedZones.require(userId, zoneId);
    const rules = (await new CustomRules(cf, zone.zoneId).get())?.rules ?? [];
    // What the rules say of the lists they use is a hint for Ban everywhere: not worth failing the read.
    await this.purposesRead(account.id, listPurposesOf(rules)).catch((err: unknown) =>
      this.deps.logger?.warn({ err }, 'could not record what the rules say of their lists'),
    );
    return toFirewallRules(rules);
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

  /**
   * Edits a rule in place (its position stays): description, action, expression and paused. The
   * PATCH is sent again by the transport (the same edit twice is one edit); when its outcome stays
   * unknown, the ruleset is read back once: the rule as edited is answered with the outcome sentence.
   */
  async update(
    userId: number,
    zoneId: string,
    ruleId: string,
    fields: FirewallRuleFields,
  ): Promise<Checked<FirewallRule>> {
    const rules = await this.customRules(userId, zoneId);
    const { ruleset, rule } = await this.findRule(rules, ruleId);
    checkExpression(fields.filter.expression, rule.expression);
    const edited = (answer: CustomRuleset) => {
      const index = answer.rules.findIndex((candidate) => candidate.id === ruleId);
      if (index < 0) throw ruleNotFound();
      return toFirewallRule(answer.rules[index]!, index);
    };
    return changeChecked(
      async () => edited(await rules.edit(ruleset.id, ruleId, editedCustomRule(rule, fields))),
      async () => {
        const now = (await this.findRule(rules, ruleId)).ruleset;
        const seen = edited(now);
        const holds =
          seen.description === fields.description &&
          seen.action === fields.action &&
          seen.paused === fields.paused &&
          seen.filter.expression === fields.filter.expression;
        return holds ? { value: seen } : undefined;
      },
      'the rule',
      'updated',
    );
  }

  /**
   * Saves a new order as one ruleset write, so it happens whole or not at all. Only the order is taken
   * from the request: each rule keeps its definition at Cloudflare. The request must name exactly the
   * zone's rules, or someone changed them meanwhile.
   */
  async reorder(
    userId: number,
    zoneId: string,
    order: ReorderFirewallRulesRequest,
  ): Promise<Checked<FirewallRule[]>> {
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
      return { value: toFirewallRules(current) };
    // One PUT of the whole ruleset, which the transport sends again (the same order twice is one
    // order); when its outcome stays unknown, the order read back tells.
    const ids = reordered.map((rule) => rule.id).join();
    return changeChecked(
      async () => toFirewallRules((await rules.replaceAll(reordered.map(definitionOf))).rules),
      async () => {
        const now = (await rules.get())?.rules ?? [];
        return now.map((rule) => rule.id).join() === ids ? { value: toFirewallRules(now) } : undefined;
      },
      'the new order',
      'saved',
    );
  }

  /**
   * The filter id must be the rule's: a console firewall rule's filter is the custom rule itself.
   * When the delete's outcome is unknown (a retry's 404 after an attempt that may have landed
   * included), the ruleset read back once tells whether the rule is gone. `found` is told the rule
   * once it is found, before the delete: the audit trail names it by its description, read anyway.
   */
  async remove(
    userId: number,
    zoneId: string,
    ruleId: string,
    filterId: string,
    found: (rule: { description: string }) => void = () => {},
  ): Promise<Checked<void>> {
    const rules = await this.customRules(userId, zoneId);
    if (filterId !== ruleId) throw new AppError('BAD_REQUEST', "filter_id must be the rule's filter id.");
    const { ruleset, rule } = await this.findRule(rules, ruleId);
    found({ description: rule.description ?? '' });
    const isGone = async () => !(await rules.get())?.rules.some((rule) => rule.id === ruleId);
    return changeChecked(
      async () => {
        try {
          await rules.remove(ruleset.id, ruleId);
        } catch (err) {
          // Deleted by someone else since it was found: gone, as asked.
          if (isCloudflareNotFound(err) && !outcomeUnknown(err) && (await isGone())) return;
          throw err;
        }
      },
      async () => ((await isGone()) ? { value: undefined } : undefined),
      'the rule',
      'deleted',
    );
  }
}
