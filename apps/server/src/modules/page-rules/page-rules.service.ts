import type { PageRule, PageRuleFields } from '@guardian/contract';
import Cloudflare from 'cloudflare';
import { isCloudflareNotFound } from '../../cloudflare';
import { pageRuleAnswer, pageRulesAnswer, usableAnswer } from '../../cloudflare/answers';
import { changeChecked, createChecked, outcomeUnknown, type Checked } from '../../cloudflare/create-once';
import { AppError } from '../../app-error';
import type { OwnedZones } from '../zones';
import { toCloudflareActions, toConsoleActions, type CloudflarePageRuleAction } from './page-rule-actions';

type CreateParams = Parameters<Cloudflare['pageRules']['create']>[0];
type UpdateParams = Parameters<Cloudflare['pageRules']['update']>[1];

/** Cloudflare's page rule, checked before it reaches the browser. */
function toPageRule(answer: unknown): PageRule {
  const rule = usableAnswer(pageRuleAnswer, answer, 'the page rule');
  return {
    id: rule.id,
    priority: rule.priority,
    status: rule.status,
    targets: rule.targets.map((target) => ({
      target: 'url',
      constraint: {
        operator: target.constraint?.operator ?? 'matches',
        value: target.constraint?.value ?? '',
      },
    })),
    actions: toConsoleActions(rule.actions as CloudflarePageRuleAction[]),
  };
}

/** What Cloudflare is sent for a rule: the console's fields with its settings translated. */
function cloudflareFields(fields: PageRuleFields) {
  return {
    targets: fields.targets,
    actions: toCloudflareActions(fields.actions),
    priority: fields.priority,
    status: fields.status,
  };
}

/** Cloudflare's 404 for a rule id of the (owned) zone: not this zone's rule, or no such rule. */
async function orRuleNotFound<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (isCloudflareNotFound(err)) throw new AppError('NOT_FOUND', 'Page rule not found.');
    throw err;
  }
}

/** Page rules of a user's zone, read and written live at Cloudflare. */
export class PageRulesService {
  constructor(private readonly ownedZones: OwnedZones) {}

  /** By ascending priority (Cloudflare: the higher number wins). */
  async list(userId: number, zoneId: string): Promise<PageRule[]> {
    const { cf, zone } = await this.ownedZones.require(userId, zoneId);
    const answer = await cf.pageRules.list({ zone_id: zone.zoneId, order: 'priority', direction: 'asc' });
    return usableAnswer(pageRulesAnswer, answer, "the zone's page rules")
      .map(toPageRule)
      .sort((a, b) => a.priority - b.priority);
  }

  /**
   * When the create's outcome is unknown (its answer lost, a 5xx), the zone's rules are read again: a
   * rule with that URL that was not there before is this one (and the answer says so); only if none is
   * the create sent again.
   */
  async add(userId: number, zoneId: string, fields: PageRuleFields): Promise<Checked<PageRule>> {
    const { cf, zone } = await this.ownedZones.require(userId, zoneId);
    const existing = new Set((await cf.pageRules.list({ zone_id: zone.zoneId })).map((rule) => rule.id));
    const params = { zone_id: zone.zoneId, ...cloudflareFields(fields) } as CreateParams;
    const pattern = fields.targets[0]?.constraint.value;
    const { value, outcome } = await createChecked<unknown>(
      () => cf.pageRules.create(params),
      async () =>
        (await cf.pageRules.list({ zone_id: zone.zoneId })).find(
          (rule) => !existing.has(rule.id) && rule.targets[0]?.constraint?.value === pattern,
        ),
      'the rule was created',
    );
    return { value: toPageRule(value), outcome };
  }

  /**
   * Replaces the rule with the fields sent (the browser keeps its priority and status). The PUT is
   * sent again by the transport (the same rule twice is one change); when its outcome stays unknown,
   * the rule is read back once: holding the URL, settings and status sent, it is answered with the
   * outcome sentence (its priority is Cloudflare's to renumber, so it is not compared).
   */
  async update(
    userId: number,
    zoneId: string,
    ruleId: string,
    fields: PageRuleFields & { id?: string },
  ): Promise<Checked<PageRule>> {
    const { cf, zone } = await this.ownedZones.require(userId, zoneId);
    if (fields.id !== undefined && fields.id !== ruleId) {
      throw new AppError('BAD_REQUEST', 'The rule id in the body does not match the address.');
    }
    const params = { zone_id: zone.zoneId, ...cloudflareFields(fields) } as UpdateParams;
    // What was sent, read as Cloudflare's answer is read, so both compare in the console's terms.
    const sent = toPageRule({ id: ruleId, ...cloudflareFields(fields) });
    const comparable = ({ targets, actions, status }: PageRule) =>
      JSON.stringify({ targets, actions, status });
    return changeChecked(
      async () => toPageRule(await orRuleNotFound(cf.pageRules.update(ruleId, params))),
      async () => {
        const seen = toPageRule(await orRuleNotFound(cf.pageRules.get(ruleId, { zone_id: zone.zoneId })));
        return comparable(seen) === comparable(sent) ? { value: seen } : undefined;
      },
      'the rule',
      'updated',
    );
  }

  /**
   * The rule must exist; a 404 from the delete itself then means it is gone (deleted meanwhile).
   * When the delete's outcome is unknown (a retry's 404 after an attempt that may have landed
   * included), the rule read back once tells, and the answer says what Guardian found. `found` is
   * told the rule's URL pattern before the delete: the audit trail names it so, read anyway.
   */
  async remove(
    userId: number,
    zoneId: string,
    ruleId: string,
    found: (rule: { url: string }) => void = () => {},
  ): Promise<Checked<void>> {
    const { cf, zone } = await this.ownedZones.require(userId, zoneId);
    const rule = await orRuleNotFound(cf.pageRules.get(ruleId, { zone_id: zone.zoneId }));
    found({ url: rule.targets?.[0]?.constraint?.value ?? '' });
    return changeChecked(
      async () => {
        try {
          await cf.pageRules.delete(ruleId, { zone_id: zone.zoneId });
        } catch (err) {
          if (!isCloudflareNotFound(err) || outcomeUnknown(err)) throw err;
        }
      },
      () =>
        cf.pageRules.get(ruleId, { zone_id: zone.zoneId }).then(
          () => undefined,
          (readFailure: unknown) =>
            isCloudflareNotFound(readFailure) ? { value: undefined } : Promise.reject(readFailure),
        ),
      'the rule',
      'deleted',
    );
  }
}
