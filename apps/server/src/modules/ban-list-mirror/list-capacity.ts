import {
  LIST_PLAN_QUOTAS,
  capacityWarning,
  highestPlan,
  type AccountCapacity,
  type ListPlan,
  type ListPlanSource,
} from '@guardian/contract';
import { AppError } from '../../app-error';
import type { Queryable } from '../../db';

/** What capacityOf needs to know of an account: its set plan (if any) and what its mirror holds. */
export interface AccountUsage {
  accountName: string;
  /** Cloudflare's account id. */
  accountId: string;
  /** The plan the person set for the account (cloudflare_accounts.list_plan, migration 021). */
  plan: ListPlan | null;
  /** The plans of the account's zones in the mirror, as Cloudflare described them (migration 035). */
  zonePlans: ListPlan[];
  /** Lists of the account in the mirror. */
  lists: number;
  /** Items of all the account's lists in the mirror. */
  items: number;
  /** The mirror holds a hostname or ASN list (Cloudflare allows them on Enterprise only). */
  enterpriseOnlyKinds: boolean;
}

const STANDARD = LIST_PLAN_QUOTAS.business;

/**
 * An account's Lists capacity: used (the mirror) of its plan's limits. The plan is the one the person
 * set; without one, Enterprise when the mirror holds what only Enterprise allows, else the highest plan
 * among the account's zones as Cloudflare describes them, else Free, the strictest (Cloudflare's account
 * answer does not say a plan; see README.md "Capacity").
 */
export function capacityOf(account: AccountUsage): AccountCapacity {
  let plan: ListPlan;
  let source: ListPlanSource;
  const zonesPlan = highestPlan(account.zonePlans);
  if (account.plan) {
    plan = account.plan;
    source = 'setting';
  } else if (
    account.enterpriseOnlyKinds ||
    account.lists > STANDARD.lists ||
    account.items > STANDARD.items
  ) {
    plan = 'enterprise';
    source = 'inferred';
  } else if (zonesPlan) {
    plan = zonesPlan;
    source = 'zones';
  } else {
    plan = 'free';
    source = 'assumed';
  }
  const quota = LIST_PLAN_QUOTAS[plan];
  return {
    account_name: account.accountName,
    account_id: account.accountId,
    plan,
    plan_source: source,
    lists: { used: account.lists, limit: quota.lists },
    items: { used: account.items, limit: quota.items },
  };
}

/**
 * Refuses (400, with the numbers) an action that would take the account past a quota: `items` more
 * items, `lists` more lists. For an import (or any write) to check before it sends anything.
 */
export function requireRoom(capacity: AccountCapacity, adding: { items?: number; lists?: number }): void {
  const warning = capacityWarning(capacity, adding);
  if (warning) throw new AppError('BAD_REQUEST', `${warning} Nothing was sent.`);
}

interface UsageRow {
  account_name: string;
  account_id: string;
  list_plan: ListPlan | null;
  zone_plans: ListPlan[] | null;
  lists: number;
  items: number;
  enterprise_only: boolean;
}

const USAGE = `
  SELECT a.account_name, a.account_id, a.list_plan,
         (SELECT array_agg(DISTINCT z.plan) FROM zones z WHERE z.account_ref = a.id AND z.plan IS NOT NULL)
           AS zone_plans,
         count(bl.id)::int AS lists,
         coalesce(sum(bl.items_count), 0)::int AS items,
         coalesce(bool_or(bl.kind IN ('hostname', 'asn')), false) AS enterprise_only
  FROM cloudflare_accounts a LEFT JOIN ban_lists bl ON bl.account_ref = a.id`;

const toUsage = (row: UsageRow): AccountUsage => ({
  accountName: row.account_name,
  accountId: row.account_id,
  plan: row.list_plan,
  zonePlans: row.zone_plans ?? [],
  lists: row.lists,
  items: row.items,
  enterpriseOnlyKinds: row.enterprise_only,
});

/** `$2` names the account: Cloudflare's account id, or Guardian's id of the row. */
const SAME_ACCOUNT = `(a.account_id = $2 OR a.id::text = $2)`;

const accountNotFound = () => new AppError('NOT_FOUND', 'Cloudflare account not found.');

/**
 * The capacity of the person's accounts, from the mirror's counts (`ban_lists.items_count`, kept in
 * the same transaction as every item write): one query, no Cloudflare call. Accounts are found
 * through `user_id`, so another person's are never read.
 */
export class ListCapacity {
  constructor(private readonly db: Queryable) {}

  async forUser(userId: number): Promise<AccountCapacity[]> {
    const rows = await this.db.query<UsageRow>(`${USAGE} WHERE a.user_id = $1 GROUP BY a.id ORDER BY a.id`, [
      userId,
    ]);
    return rows.map((row) => capacityOf(toUsage(row)));
  }

  /**
   * One of the person's accounts, by Cloudflare's account id (or Guardian's id of it, as the accounts
   * routes take); another person's is "not found".
   */
  async ofAccount(userId: number, accountId: string): Promise<AccountCapacity> {
    const [row] = await this.db.query<UsageRow>(
      `${USAGE} WHERE a.user_id = $1 AND ${SAME_ACCOUNT} GROUP BY a.id`,
      [userId, accountId],
    );
    if (!row) throw accountNotFound();
    return capacityOf(toUsage(row));
  }

  /**
   * Every person's accounts after Guardian's id `afterRef`, at most `limit`, in id order, with their
   * person and capacity: the capacity alerts' sweep (modules/alerts) reads them all a batch at a time.
   */
  async allAccounts(
    afterRef: number,
    limit: number,
  ): Promise<{ ref: number; userId: number; capacity: AccountCapacity }[]> {
    const rows = await this.db.query<UsageRow & { ref: number; user_id: number }>(
      `${USAGE.replace('SELECT ', 'SELECT a.id AS ref, a.user_id, ')}
        WHERE a.id > $1 GROUP BY a.id ORDER BY a.id LIMIT $2`,
      [afterRef, limit],
    );
    return rows.map((row) => ({
      ref: Number(row.ref),
      userId: Number(row.user_id),
      capacity: capacityOf(toUsage(row)),
    }));
  }

  /** Sets (or, with null, clears) the plan the account's quotas are read from. */
  async setPlan(userId: number, accountId: string, plan: ListPlan | null): Promise<AccountCapacity> {
    const updated = await this.db.query<{ account_id: string }>(
      `UPDATE cloudflare_accounts a SET list_plan = $3 WHERE a.user_id = $1 AND ${SAME_ACCOUNT}
       RETURNING a.account_id`,
      [userId, accountId, plan],
    );
    if (!updated[0]) throw accountNotFound();
    return this.ofAccount(userId, updated[0].account_id);
  }
}
