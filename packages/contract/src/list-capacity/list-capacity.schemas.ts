import { z } from 'zod';
import { keysOf } from '../shared/closed-set';
import LABELS from '../shared/labels.en.json';

/*
 * Cloudflare's Lists quotas per account, by plan (../shared/cloudflare/README.md "Lists"): the number
 * of lists, and the items of all the account's lists together. Hostname and ASN lists are
 * Enterprise-only.
 */

/** The plans, lowest first (`highestPlan` goes by this order), each with its name. */
export const LIST_PLAN_NAMES = LABELS.listPlans;
export type ListPlan = keyof typeof LIST_PLAN_NAMES;
export const LIST_PLANS = keysOf(LIST_PLAN_NAMES);

export const LIST_PLAN_QUOTAS: Record<ListPlan, { lists: number; items: number }> = {
  free: { lists: 1, items: 10_000 },
  pro: { lists: 10, items: 10_000 },
  business: { lists: 10, items: 10_000 },
  enterprise: { lists: 1_000, items: 500_000 },
};

/** The plan a Cloudflare plan id names (a zone's `plan.legacy_id`), or null for one Guardian does not know. */
export function listPlanOf(id: string | null | undefined): ListPlan | null {
  return LIST_PLANS.find((plan) => plan === id) ?? null;
}

/** The highest of some plans (Enterprise above Business above Pro above Free); null for none. */
export function highestPlan(plans: readonly ListPlan[]): ListPlan | null {
  return plans.reduce<ListPlan | null>(
    (highest, plan) => (highest && LIST_PLANS.indexOf(highest) >= LIST_PLANS.indexOf(plan) ? highest : plan),
    null,
  );
}

/**
 * Where the plan of an account's capacity comes from. Cloudflare's account answer does not say a
 * plan (an account is `standard` or `enterprise`); its zones do. `setting` is the plan the person
 * chose for the account; `inferred` is Enterprise because the mirror holds what only Enterprise
 * allows (a hostname or ASN list, more than 10 lists or 10,000 items); `zones` is the highest plan
 * among the account's zones as Cloudflare last described them (zones sync, zone add); `assumed` is
 * Free, the strictest, when none of these says (never promising room Cloudflare may not have).
 */
export const LIST_PLAN_SOURCES = ['setting', 'inferred', 'zones', 'assumed'] as const;
export type ListPlanSource = (typeof LIST_PLAN_SOURCES)[number];

const usedOfSchema = z.object({ used: z.number().int().nonnegative(), limit: z.number().int().positive() });

export const accountCapacitySchema = z.object({
  account_name: z.string(),
  /** Cloudflare's account id. */
  account_id: z.string(),
  plan: z.enum(LIST_PLANS),
  plan_source: z.enum(LIST_PLAN_SOURCES),
  /** Lists of the account in the mirror, of the plan's limit. */
  lists: usedOfSchema,
  /** Items of all of the account's lists in the mirror, of the plan's limit. */
  items: usedOfSchema,
});
export type AccountCapacity = z.infer<typeof accountCapacitySchema>;

export const capacityAnswerSchema = z.object({ accounts: z.array(accountCapacitySchema) });
export type CapacityAnswer = z.infer<typeof capacityAnswerSchema>;

export const capacityAccountParamsSchema = z.object({
  account_id: z
    .string()
    .min(1, 'The account id is not valid.')
    .max(64, 'The account id is not valid.')
    .regex(/^[0-9a-z]+$/i, 'The account id is not valid.'),
});

export const setListPlanRequestSchema = z.object({
  plan: z.enum(LIST_PLANS, { error: `The plan must be one of ${LIST_PLANS.join(', ')}.` }).nullable(),
});
export type SetListPlanRequest = z.infer<typeof setListPlanRequestSchema>;

/**
 * What adding `items` items (and `lists` lists) to an account would leave: the words of the warning
 * when it would pass a quota, else undefined. The same words on the server and in the dialogs.
 */
export function capacityWarning(
  capacity: Pick<AccountCapacity, 'account_name' | 'plan' | 'lists' | 'items'>,
  adding: { items?: number; lists?: number },
): string | undefined {
  const plan = LIST_PLAN_NAMES[capacity.plan];
  const items = adding.items ?? 0;
  const lists = adding.lists ?? 0;
  if (lists > 0 && capacity.lists.used + lists > capacity.lists.limit) {
    return (
      `"${capacity.account_name}" has ${capacity.lists.used.toLocaleString('en-US')} of ` +
      `${capacity.lists.limit.toLocaleString('en-US')} lists (${plan} plan): Cloudflare will refuse another.`
    );
  }
  if (items > 0 && capacity.items.used + items > capacity.items.limit) {
    const left = Math.max(0, capacity.items.limit - capacity.items.used);
    return (
      `"${capacity.account_name}" has ${capacity.items.used.toLocaleString('en-US')} of ` +
      `${capacity.items.limit.toLocaleString('en-US')} list items (${plan} plan): ` +
      `${items.toLocaleString('en-US')} more would pass it (${left.toLocaleString('en-US')} left).`
    );
  }
  return undefined;
}
