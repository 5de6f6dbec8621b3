/**
 * An item's history is its value's in the list (issue 36): the events are found by the value's key,
 * as the mirror matches values (ban-list-mirror/list-item-value.ts `mirrorKeySql`: lower-case, a
 * redirect's source), no longer by Cloudflare's item id. An imported item's events stay under the
 * provisional id they were written with when a sync or a delete learns Cloudflare's (before, 89,000
 * imported items' events were rewritten in the sync's last transaction: a tenth of that sync), a
 * restored item's go on under its new id, and an address added again shows what happened to it before.
 */
export const sql = `
  CREATE INDEX ban_list_item_history_value_idx ON ban_list_item_history (ban_list_ref, lower(split_part(value, ' -> ', 1)), id);
  DROP INDEX ban_list_item_history_item_idx;
`;
