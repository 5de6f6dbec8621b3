import {
  RULES_OVERVIEW_MATCHES_MAX,
  type FirewallRuleMatch,
  type FirewallRulesSummary,
  type PageRuleMatch,
  type PageRulesSummary,
  type RulesOverviewResponse,
  type RulesOverviewZone,
} from '@guardian/contract';
import type Cloudflare from 'cloudflare';
import type { AppDeps } from '../../deps';
import { AppError } from '../../app-error';
import { accountClient, cloudflareErrorToAppError } from '../../cloudflare';
import { pageRuleAnswer, pageRulesAnswer, usableAnswer } from '../../cloudflare/answers';
import {
  CustomRules,
  listPurposesOf,
  toFirewallRules,
  type ListPurposes,
  type ListPurposesRead,
} from '../firewall-rules';
import type { OwnedZone, ZonesRepository } from '../zones';
import { mapWithConcurrency } from './concurrency';

/**
 * Zones read from Cloudflare at once, per request (two calls each): the rest wait their turn, so a
 * page of 25 zones never sends 50 calls together against the account's rate limit.
 */
export const ZONE_READS_AT_ONCE = 4;

const NOT_FOUND = 'Zone not found.';

/** A zone's failure in the words the console uses for any Cloudflare error; anything else is a bug. */
function reasonOf(err: unknown): string {
  if (err instanceof AppError) return err.message;
  const appError = cloudflareErrorToAppError(err);
  if (!appError) throw err;
  return appError.message;
}

function summarize<T extends { priority: number }>(
  rules: T[],
  needle: string,
  matches: (rule: T) => boolean,
): { total: number; matchCount: number; matches: T[] } {
  if (needle === '') return { total: rules.length, matchCount: 0, matches: [] };
  const found = rules.filter(matches);
  return {
    total: rules.length,
    matchCount: found.length,
    matches: found.slice(0, RULES_OVERVIEW_MATCHES_MAX),
  };
}

async function firewallSummary(
  cf: Cloudflare,
  zoneId: string,
  needle: string,
  purposesRead: (purposes: ListPurposes) => Promise<void>,
): Promise<FirewallRulesSummary> {
  try {
    const ruleset = await new CustomRules(cf, zoneId).get();
    await purposesRead(listPurposesOf(ruleset?.rules ?? []));
    const rules: FirewallRuleMatch[] = toFirewallRules(ruleset?.rules ?? []).map((rule) => ({
      id: rule.id,
      priority: rule.priority,
      description: rule.description,
      expression: rule.filter.expression,
      action: rule.action,
      paused: rule.paused,
    }));
    return summarize(
      rules,
      needle,
      (rule) =>
        rule.description.toLowerCase().includes(needle) || rule.expression.toLowerCase().includes(needle),
    );
  } catch (err) {
    return { error: reasonOf(err) };
  }
}

async function pageRulesSummary(cf: Cloudflare, zoneId: string, needle: string): Promise<PageRulesSummary> {
  try {
    const answer = await cf.pageRules.list({ zone_id: zoneId, order: 'priority', direction: 'asc' });
    const rules: PageRuleMatch[] = usableAnswer(pageRulesAnswer, answer, "the zone's page rules")
      .map((item) => usableAnswer(pageRuleAnswer, item, 'the page rule'))
      .map((rule) => ({
        id: rule.id,
        priority: rule.priority,
        url: rule.targets[0]?.constraint?.value ?? '',
        status: rule.status,
      }))
      .sort((a, b) => a.priority - b.priority);
    return summarize(rules, needle, (rule) => rule.url.toLowerCase().includes(needle));
  } catch (err) {
    return { error: reasonOf(err) };
  }
}

/**
 * The rules overview: for each zone asked (at most 25, see the contract), how many firewall rules
 * (WAF custom rules) and page rules it has at Cloudflare, and with a search the rules whose
 * description or expression (firewall) or URL pattern (page rules) contains it. Read live, a few
 * zones at a time; a zone that fails, or is not the person's, carries its error in its row.
 */
export class RulesOverviewService {
  constructor(
    private readonly deps: AppDeps,
    private readonly zones: ZonesRepository,
    /** Told what the rules read say the zone's account's ban lists are for (issue 35 item 9). */
    private readonly purposesRead: ListPurposesRead = async () => {},
  ) {}

  async read(userId: number, zoneIds: string[], search = ''): Promise<RulesOverviewResponse> {
    const owned = new Map(
      (await this.zones.findOwnedMany(userId, zoneIds)).map((found) => [found.zone.zoneId, found]),
    );
    const needle = search.trim().toLowerCase();
    const zones = await mapWithConcurrency(zoneIds, ZONE_READS_AT_ONCE, (zoneId) =>
      this.readZone(zoneId, owned.get(zoneId), needle),
    );
    return { zones };
  }

  private async readZone(
    zoneId: string,
    owned: OwnedZone | undefined,
    needle: string,
  ): Promise<RulesOverviewZone> {
    // Another person's zone reads as an unknown one: ids cannot be probed.
    if (!owned) {
      return {
        zone_id: zoneId,
        domain: null,
        firewallRules: { error: NOT_FOUND },
        pageRules: { error: NOT_FOUND },
      };
    }
    const cf = accountClient(this.deps, owned.account);
    const [firewallRules, pageRules] = await Promise.all([
      firewallSummary(cf, owned.zone.zoneId, needle, (purposes) =>
        // A hint for Ban everywhere, from rules read anyway: not worth failing the zone's row.
        this.purposesRead(owned.account.id, purposes).catch((err: unknown) =>
          this.deps.logger?.warn({ err }, 'could not record what the rules say of their lists'),
        ),
      ),
      pageRulesSummary(cf, owned.zone.zoneId, needle),
    ]);
    return { zone_id: zoneId, domain: owned.zone.domain, firewallRules, pageRules };
  }
}
