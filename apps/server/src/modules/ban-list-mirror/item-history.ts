import type { BanListItemHistoryEvent, ItemAddedVia, ItemHistoryEventKind } from '@guardian/contract';
import { ITEM_HISTORY_MAX } from '@guardian/contract';
import type { Queryable } from '../../db';
import { mirrorKeySql } from './list-item-value';

/** How the history names Guardian itself (the expiry sweep). */
export const GUARDIAN_ACTOR = 'Guardian (expiry)';

export interface NewItemEvent {
  itemId: string;
  value: string;
  event: ItemHistoryEventKind;
  /** Null for Guardian itself. */
  userId: number | null;
  actor: string;
  addedVia?: ItemAddedVia | null;
  expiresAt?: Date | null;
}

interface EventRow {
  at: Date;
  event: ItemHistoryEventKind;
  actor: string;
  added_via: ItemAddedVia | null;
  expires_at: Date | null;
  value: string;
}

/** The items' history (migration 019): appended with each change, read per value (migration 057). */
export class ItemHistoryRepository {
  constructor(private readonly db: Queryable) {}

  /** Appends events of one list in one statement (the expiry sweep records a whole batch at once). */
  async record(ref: number, events: readonly NewItemEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.query(
      `INSERT INTO ban_list_item_history (ban_list_ref, item_id, value, event, user_id, actor, added_via, expires_at)
       SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::timestamptz[])`,
      [
        ref,
        events.map((event) => event.itemId),
        events.map((event) => event.value),
        events.map((event) => event.event),
        events.map((event) => event.userId),
        events.map((event) => event.actor),
        events.map((event) => event.addedVia ?? null),
        events.map((event) => event.expiresAt ?? null),
      ],
    );
  }

  /**
   * The history of a value in the list, oldest first: its first event and the newest others,
   * ITEM_HISTORY_MAX in all (an item whose expiry was changed a thousand times still answers quickly).
   * Found by the value's key (migration 057), whatever item id each event was written under: an
   * import's provisional one, Cloudflare's, or an earlier item's of the same value.
   */
  async forValue(ref: number, value: string): Promise<BanListItemHistoryEvent[]> {
    const ofValue = `ban_list_ref = $1 AND ${mirrorKeySql('value')} = ${mirrorKeySql('$2::text')}`;
    const rows = await this.db.query<EventRow>(
      `(SELECT id, at, event, actor, added_via, expires_at, value FROM ban_list_item_history
        WHERE ${ofValue} ORDER BY id LIMIT 1)
       UNION
       (SELECT id, at, event, actor, added_via, expires_at, value FROM ban_list_item_history
        WHERE ${ofValue} ORDER BY id DESC LIMIT $3)
       ORDER BY id`,
      [ref, value, ITEM_HISTORY_MAX - 1],
    );
    return rows.map((row) => ({
      at: row.at.toISOString(),
      event: row.event,
      actor: row.actor,
      added_via: row.added_via,
      expires_at: row.expires_at?.toISOString() ?? null,
    }));
  }
}
