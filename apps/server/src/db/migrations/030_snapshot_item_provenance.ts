/**
 * A restore brings back exactly what Clean All or a list's delete removed (issue 35): each kept item
 * keeps its Cloudflare id (its history's key), its date, who added it, how, and its expiry, and a
 * deleted list's items keep their history (it goes with the list, migration 027). Cloudflare dates an
 * item added again today, so the mirror keeps a restored item's first date beside Cloudflare's. None of
 * it rewrites a row: nullable columns and constant defaults, and the history's widened check is not
 * validated against the events already there (all of them pass the narrower one).
 */
export const sql = `
  ALTER TABLE snapshot_items
    ADD COLUMN item_id text,
    ADD COLUMN created_on timestamptz,
    ADD COLUMN added_via text NOT NULL DEFAULT 'cloudflare',
    ADD COLUMN added_by text NOT NULL DEFAULT '',
    ADD COLUMN added_by_user bigint,
    ADD COLUMN expires_at timestamptz;

  -- The history of a deleted list's kept items, by their Cloudflare id then.
  CREATE TABLE snapshot_item_history (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    snapshot_id uuid NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
    list_index integer NOT NULL,
    item_id text NOT NULL,
    at timestamptz NOT NULL,
    event text NOT NULL,
    user_id bigint,
    actor text NOT NULL,
    added_via text,
    expires_at timestamptz
  );
  CREATE INDEX snapshot_item_history_item_idx ON snapshot_item_history (snapshot_id, list_index, item_id, id);

  -- When a restored item was first created, as the console shows it (null: Cloudflare's date is it).
  ALTER TABLE ban_list_items ADD COLUMN first_created_on timestamptz;

  -- 'restored': the item was put back by a restore (the person who restored it is the actor).
  ALTER TABLE ban_list_item_history DROP CONSTRAINT ban_list_item_history_event_check;
  ALTER TABLE ban_list_item_history ADD CONSTRAINT ban_list_item_history_event_check
    CHECK (event IN ('added', 'expiry_changed', 'removed', 'expired', 'restored')) NOT VALID;
`;
