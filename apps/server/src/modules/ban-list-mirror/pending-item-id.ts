import { randomUUID } from 'node:crypto';

/**
 * An imported item's Cloudflare id before Guardian has learned it (see item-ids.ts). Cloudflare's ids
 * are 32 hex digits, so it never sends one of these.
 */
const PENDING = 'pending:';

/** A provisional item id: unique, and never one of Cloudflare's. */
export function newPendingItemId(): string {
  return `${PENDING}${randomUUID()}`;
}

export function isPendingItemId(itemId: string): boolean {
  return itemId.startsWith(PENDING);
}

/** The SQL LIKE pattern of provisional item ids. */
export const PENDING_ITEM_ID_LIKE = `${PENDING}%`;

/** A provisional item id and the Cloudflare id it stands for, once learned. */
export interface LearnedItemId {
  pending: string;
  itemId: string;
}
