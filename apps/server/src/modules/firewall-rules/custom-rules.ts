import Cloudflare from 'cloudflare';
import { isCloudflareNotFound } from '../../cloudflare';
import { customRulesetAnswer, usableAnswer } from '../../cloudflare/answers';

/** WAF custom rules live in the zone's entrypoint ruleset of this phase. */
export const CUSTOM_RULES_PHASE = 'http_request_firewall_custom';

/** A custom rule as Cloudflare answers it; fields the console does not read ride along untouched. */
export interface CustomRule {
  id: string;
  action: string;
  expression: string;
  description?: string;
  enabled?: boolean;
  ref?: string;
  action_parameters?: Record<string, unknown>;
  logging?: { enabled: boolean };
  [field: string]: unknown;
}

/** A rule as sent to Cloudflare: an `id` keeps an existing rule (and its version history) in place. */
export type CustomRuleDefinition = Omit<CustomRule, 'id'> & { id?: string };

export interface CustomRuleset {
  id: string;
  rules: CustomRule[];
}

/** Fields Cloudflare sets itself; sending them back in a ruleset PUT is not allowed. */
const READ_ONLY_FIELDS = ['version', 'last_updated', 'categories'] as const;

export function definitionOf(rule: CustomRule): CustomRuleDefinition {
  const definition: CustomRuleDefinition = { ...rule };
  for (const field of READ_ONLY_FIELDS) delete definition[field];
  return definition;
}

/** Cloudflare's "could not route to the zone": the zone itself is gone, not the ruleset. */
const ROUTING_ERROR_CODES = new Set([7000, 7003]);

function isMissingEntrypoint(err: unknown): boolean {
  return (
    isCloudflareNotFound(err) &&
    !err.errors.some((entry) => ROUTING_ERROR_CODES.has(Number((entry as { code?: unknown }).code)))
  );
}

/**
 * The SDK types a write's answer as unknown (a dry run answers null) and rules as a union of every
 * phase's rule shapes; custom rules, written without dry_run, are one plain shape, checked here.
 */
function asRuleset(answer: unknown): CustomRuleset {
  const ruleset = usableAnswer(customRulesetAnswer, answer, "the zone's custom rules");
  return { id: ruleset.id, rules: (ruleset.rules ?? []) as CustomRule[] };
}

/** The SDK calls on a zone's custom rules. Every write answers the whole ruleset, in order. */
export class CustomRules {
  constructor(
    private readonly cf: Cloudflare,
    private readonly zoneId: string,
  ) {}

  /** The zone's custom rules in order; null when the zone has never had any (no entrypoint yet). */
  async get(): Promise<CustomRuleset | null> {
    try {
      return asRuleset(await this.cf.rulesets.phases.get(CUSTOM_RULES_PHASE, { zone_id: this.zoneId }));
    } catch (err) {
      if (isMissingEntrypoint(err)) return null;
      throw err;
    }
  }

  /** Replaces the whole ordered list in one write (creating the entrypoint if needed). */
  async replaceAll(rules: CustomRuleDefinition[]): Promise<CustomRuleset> {
    const params = { zone_id: this.zoneId, rules } as Parameters<
      Cloudflare['rulesets']['phases']['update']
    >[1];
    return asRuleset(await this.cf.rulesets.phases.update(CUSTOM_RULES_PHASE, params));
  }

  /** Adds a rule after the existing ones. */
  async append(rulesetId: string, rule: CustomRuleDefinition): Promise<CustomRuleset> {
    const params = { zone_id: this.zoneId, ...rule } as Parameters<
      Cloudflare['rulesets']['rules']['create']
    >[1];
    return asRuleset(await this.cf.rulesets.rules.create(rulesetId, params));
  }

  /** Rewrites one rule in place. */
  async edit(rulesetId: string, ruleId: string, rule: CustomRuleDefinition): Promise<CustomRuleset> {
    const params = { zone_id: this.zoneId, ruleset_id: rulesetId, ...rule } as Parameters<
      Cloudflare['rulesets']['rules']['edit']
    >[1];
    return asRuleset(await this.cf.rulesets.rules.edit(ruleId, params));
  }

  async remove(rulesetId: string, ruleId: string): Promise<CustomRuleset> {
    return asRuleset(
      await this.cf.rulesets.rules.delete(ruleId, { zone_id: this.zoneId, ruleset_id: rulesetId }),
    );
  }
}
