export const sql = `
  -- What a destructive action removed (Clean All, deleting a list, deleting a DNS record), kept so the
  -- person can put it back until expires_at. Expired snapshots are deleted when the next is taken.
  CREATE TABLE snapshots (
    id uuid PRIMARY KEY,
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind text NOT NULL CHECK (kind IN ('clean-all', 'ban-list', 'dns-record')),
    summary text NOT NULL,
    -- The lists (account_ref, list_id, list_name, kind, items) or the DNS record (account_ref,
    -- zone_id, record) it is about; small: list items live in snapshot_items.
    target jsonb NOT NULL,
    items integer NOT NULL DEFAULT 0,
    zone_id text,
    record_id text,
    list_id text,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    restored_at timestamptz
  );
  CREATE INDEX snapshots_user_idx ON snapshots (user_id, created_at DESC);
  CREATE INDEX snapshots_expires_idx ON snapshots (expires_at);

  -- The list items a snapshot kept, by the position of their list in target.lists (list_index).
  CREATE TABLE snapshot_items (
    -- Restores read the items back in batches, by this.
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    snapshot_id uuid NOT NULL REFERENCES snapshots (id) ON DELETE CASCADE,
    list_index integer NOT NULL,
    value text NOT NULL,
    comment text NOT NULL DEFAULT ''
  );
  CREATE INDEX snapshot_items_snapshot_idx ON snapshot_items (snapshot_id, list_index, id);
`;
