import { z } from 'zod';
import { firewallRuleActionSchema } from '../firewall-rules/firewall-rules.schemas';
import { commaSeparatedIds, LOOKUP_ID_MAX } from '../shared/ids';

/**
 * The rules overview (/cloudflare/rules): every zone's firewall rules and page rules, read live from
 * Cloudflare. A request names at most RULES_OVERVIEW_MAX_ZONES zones (the browser pages the zones
 * list, RULES_OVERVIEW_PAGE_SIZE a page, and asks a few at a time to show its progress).
 */
export const RULES_OVERVIEW_MAX_ZONES = 25;
export const RULES_OVERVIEW_PAGE_SIZE = 25;
/** Matching rules listed per zone and kind; the rest are counted (`matchCount`). */
export const RULES_OVERVIEW_MATCHES_MAX = 10;
export const RULES_OVERVIEW_SEARCH_MAX_LENGTH = 200;

const zoneIdSchema = z.string().min(1).max(LOOKUP_ID_MAX, 'A zone id is too long.');

/** GET /api/cloudflare/rules-overview?zone_ids=a,b,c&search=... */
export const rulesOverviewQuerySchema = z.object({
  zone_ids: z
    .string({ error: 'zone_ids is required: the zones to read, separated by commas.' })
    .max(
      RULES_OVERVIEW_MAX_ZONES * (LOOKUP_ID_MAX + 1),
      `At most ${RULES_OVERVIEW_MAX_ZONES} zones a request.`,
    )
    .transform(commaSeparatedIds)
    .pipe(
      z
        .array(zoneIdSchema)
        .max(RULES_OVERVIEW_MAX_ZONES, `At most ${RULES_OVERVIEW_MAX_ZONES} zones a request.`)
        .min(1, 'zone_ids is required: the zones to read, separated by commas.'),
    ),
  /** Case-insensitive text found in a firewall rule's description or expression, or a page rule's URL. */
  search: z
    .string()
    .max(
      RULES_OVERVIEW_SEARCH_MAX_LENGTH,
      `The search is at most ${RULES_OVERVIEW_SEARCH_MAX_LENGTH} characters.`,
    )
    .trim()
    .optional(),
});
export type RulesOverviewQuery = z.input<typeof rulesOverviewQuerySchema>;

export const firewallRuleMatchSchema = z.object({
  id: z.string(),
  priority: z.number().int(),
  description: z.string(),
  expression: z.string(),
  action: firewallRuleActionSchema,
  paused: z.boolean(),
});
export type FirewallRuleMatch = z.infer<typeof firewallRuleMatchSchema>;

export const pageRuleMatchSchema = z.object({
  id: z.string(),
  priority: z.number().int(),
  /** The first target's URL pattern. */
  url: z.string(),
  status: z.enum(['active', 'disabled']),
});
export type PageRuleMatch = z.infer<typeof pageRuleMatchSchema>;

/** One kind of rules of a zone: how many, and (with a search) the matching ones; or why it could not be read. */
function rulesSummarySchema<T extends z.ZodType>(match: T) {
  return z.union([
    z.object({
      total: z.number().int(),
      /** With a search: how many rules match; without one, 0. */
      matchCount: z.number().int(),
      /** The first RULES_OVERVIEW_MATCHES_MAX matching rules, by priority. */
      matches: z.array(match),
    }),
    z.object({ error: z.string() }),
  ]);
}

export const firewallRulesSummarySchema = rulesSummarySchema(firewallRuleMatchSchema);
export const pageRulesSummarySchema = rulesSummarySchema(pageRuleMatchSchema);
export type FirewallRulesSummary = z.infer<typeof firewallRulesSummarySchema>;
export type PageRulesSummary = z.infer<typeof pageRulesSummarySchema>;

export const rulesOverviewZoneSchema = z.object({
  zone_id: z.string(),
  /** Null for a zone id that is not one of the person's zones. */
  domain: z.string().nullable(),
  firewallRules: firewallRulesSummarySchema,
  pageRules: pageRulesSummarySchema,
});
export type RulesOverviewZone = z.infer<typeof rulesOverviewZoneSchema>;

/** The zones asked for, in the order asked; a zone that failed carries its error in its row. */
export const rulesOverviewResponseSchema = z.object({ zones: z.array(rulesOverviewZoneSchema) });
export type RulesOverviewResponse = z.infer<typeof rulesOverviewResponseSchema>;
