import { z } from 'zod';
import { REPORT_RANGE_WORDS, REPORT_RANGES, type ReportRange } from '../reports/reports.schemas';
import { keysOf } from '../shared/closed-set';
import LABELS from '../shared/labels.en.json';

/**
 * What a plan limits, in the order the Plans page, the profile and the overview show them, with the
 * words of its refusal ("Your plan allows 2 Cloudflare accounts"): each limit's name, singular and plural.
 */
export const PLAN_LIMIT_WORDS = LABELS.planLimits;
export type PlanLimit = keyof typeof PLAN_LIMIT_WORDS;
export const PLAN_LIMITS = keysOf(PLAN_LIMIT_WORDS);

/** Each limit as a label (a column, a field, a row of use): "Cloudflare accounts". */
export const PLAN_LIMIT_LABELS = Object.fromEntries(
  PLAN_LIMITS.map((limit) => {
    const words = PLAN_LIMIT_WORDS[limit].many;
    return [limit, `${words[0]!.toUpperCase()}${words.slice(1)}`];
  }),
) as Record<PlanLimit, string>;

/** A limit as a count: "2 Cloudflare accounts", "1 zone", "1,000 list items". */
export function planLimitText(limit: PlanLimit, count: number): string {
  const words = PLAN_LIMIT_WORDS[limit];
  return `${count.toLocaleString('en-US')} ${count === 1 ? words.one : words.many}`;
}

/** The refusal when a person is at a limit: a 403 with these words. */
export function planRefusal(limit: PlanLimit, allowed: number): string {
  return `Your plan allows ${planLimitText(limit, allowed)}.`;
}

/** The refusal of a report range beyond the plan's. */
export function planRangeRefusal(allowed: ReportRange): string {
  return `Your plan's reports reach back ${REPORT_RANGE_WORDS[allowed]}.`;
}

/** The highest any limit may be (list items: far beyond an Enterprise account's lists). */
export const PLAN_LIMIT_MAX = 100_000_000;
export const PLAN_NAME_MAX = 60;
/** Plans there can be at once: the Plans page shows them all, and the Users page chooses among them. */
export const MAX_PLANS = 50;

const limitSchema = (limit: PlanLimit) => {
  const message = `${PLAN_LIMIT_LABELS[limit]} must be a whole number from 0 to ${PLAN_LIMIT_MAX.toLocaleString('en-US')}.`;
  return z.number({ error: message }).int(message).min(0, message).max(PLAN_LIMIT_MAX, message);
};

/** A plan's limits: what `POST` and `PUT /api/admin/plans` take. */
export const planRequestSchema = z.object({
  name: z
    .string({ error: 'Name is required.' })
    .trim()
    .min(1, 'Name is required.')
    .max(PLAN_NAME_MAX, `Name must be at most ${PLAN_NAME_MAX} characters.`),
  accounts: limitSchema('accounts'),
  zones: limitSchema('zones'),
  lists: limitSchema('lists'),
  list_items: limitSchema('list_items'),
  api_keys: limitSchema('api_keys'),
  servers: limitSchema('servers'),
  /** Enforced once templates exist. */
  templates: limitSchema('templates'),
  /** The widest report range the plan allows. */
  report_range: z.enum(REPORT_RANGES, { error: 'Report range must be 24h, 7d or 30d.' }),
});
export type PlanFields = z.infer<typeof planRequestSchema>;

/** A plan as administrators see it. */
export const planSchema = planRequestSchema.extend({
  id: z.number().int(),
  /** New people get this plan. Exactly one plan is the default. */
  is_default: z.boolean(),
  /** How many people have it. */
  users: z.number().int(),
});
export type Plan = z.infer<typeof planSchema>;

export const planParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'The plan id must be a number.' })
    .int('The plan id must be a number.')
    .positive('The plan id must be a number.')
    .max(Number.MAX_SAFE_INTEGER, 'The plan id must be a number.'),
});

/** One limit with what the person uses of it. */
export const planUseSchema = z.object({
  limit: z.enum(PLAN_LIMITS),
  allowed: z.number().int(),
  used: z.number().int(),
});
export type PlanUse = z.infer<typeof planUseSchema>;

/** `GET /api/me/plan`: the person's plan and their use against each limit. */
export const ownPlanSchema = z.object({
  name: z.string(),
  report_range: z.enum(REPORT_RANGES),
  use: z.array(planUseSchema),
});
export type OwnPlan = z.infer<typeof ownPlanSchema>;
