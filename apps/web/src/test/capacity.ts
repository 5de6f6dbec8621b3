import type { AccountCapacity } from '@guardian/contract';

/** [used, limit] */
type UsedOf = [used: number, limit: number];

/** An account's plan and its room, as GET /api/cloudflare/capacity answers it; `lists` and `items` are [used, limit]. */
export const capacityOf = (
  accountName: string,
  accountId: string,
  plan: AccountCapacity['plan'],
  planSource: AccountCapacity['plan_source'],
  [listsUsed, listsLimit]: UsedOf,
  [itemsUsed, itemsLimit]: UsedOf,
): AccountCapacity => ({
  account_name: accountName,
  account_id: accountId,
  plan,
  plan_source: planSource,
  lists: { used: listsUsed, limit: listsLimit },
  items: { used: itemsUsed, limit: itemsLimit },
});
