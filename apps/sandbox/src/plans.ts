import type { Plan } from './state';

/** Per-plan quotas Cloudflare documents (lists, custom rules, page rules). */
export interface PlanLimits {
  lists: number;
  listItems: number;
  customRules: number;
  pageRules: number;
  /** Lists of kind hostname and asn are Enterprise-only. */
  allListKinds: boolean;
  /** The `log` action of custom rules is Enterprise-only. */
  logAction: boolean;
  /** Enterprise zones may use DNS TTLs down to 30 seconds. */
  minTtl: number;
}

export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  free: {
    lists: 1,
    listItems: 10_000,
    customRules: 5,
    pageRules: 3,
    allListKinds: false,
    logAction: false,
    minTtl: 60,
  },
  pro: {
    lists: 10,
    listItems: 10_000,
    customRules: 20,
    pageRules: 20,
    allListKinds: false,
    logAction: false,
    minTtl: 60,
  },
  business: {
    lists: 10,
    listItems: 10_000,
    customRules: 100,
    pageRules: 50,
    allListKinds: false,
    logAction: false,
    minTtl: 60,
  },
  enterprise: {
    lists: 1000,
    listItems: 500_000,
    customRules: 1000,
    pageRules: 125,
    allListKinds: true,
    logAction: true,
    minTtl: 30,
  },
};

export const PLAN_NAMES: Record<Plan, string> = {
  free: 'Free Website',
  pro: 'Pro Website',
  business: 'Business Website',
  enterprise: 'Enterprise Website',
};

export const PLAN_PRICES: Record<Plan, number> = { free: 0, pro: 20, business: 200, enterprise: 5000 };
