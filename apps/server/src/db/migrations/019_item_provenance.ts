export const sql = `
  -- Who added each item, how, and until when it stays (issue 15). Items found at Cloudflare by a sync
  -- (added there, or before this migration) are 'cloudflare' with no person. A sync that loads a list
  -- anew carries these columns over by Cloudflare's item id (mirror-sync.ts). Adding columns with a
  -- constant default rewrites no rows, even in a 500,000-item list.
  ALTER TABLE ban_list_items
    ADD COLUMN added_via text NOT NULL DEFAULT 'cloudflare'
      CHECK (added_via IN ('console', 'import', 'api', 'cloudflare')),
    -- The person's id (no foreign key: like the audit trail, it outlives the person, and a partition a sync
    -- swaps in must not need one validated) and how they were named when they added it (their e-mail, with the
    -- API key's name for an API call): what the Added by column shows and sorts by.
    ADD COLUMN added_by_user bigint,
    ADD COLUMN added_by text COLLATE "C" NOT NULL DEFAULT '',
    -- Cloudflare has no expiry: Guardian deletes the item there and here once this has passed.
    ADD COLUMN expires_at timestamptz;

  -- The Expires and Added by columns' orders, for a page at any depth of a 500,000-item list; Added by
  -- sorts case-insensitively, and the same index finds the items whose adder starts with a search.
  CREATE INDEX ban_list_items_expires_idx ON ban_list_items (ban_list_ref, expires_at, id);
  CREATE INDEX ban_list_items_added_by_idx ON ban_list_items (ban_list_ref, lower(added_by), id);
  -- The expiry sweep's look for due items across every list: only items with an expiry are indexed.
  CREATE INDEX ban_list_items_due_idx ON ban_list_items (expires_at) WHERE expires_at IS NOT NULL;

  -- Each item's history: added (by whom, how), expiry changes, removal (by a person, or by the expiry
  -- sweep). Keyed by Cloudflare's item id, which a sync keeps (Guardian's ids are renumbered), and
  -- kept after the item is gone; it goes with its list.
  CREATE TABLE ban_list_item_history (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    ban_list_ref bigint NOT NULL REFERENCES ban_lists (id) ON DELETE CASCADE,
    item_id text NOT NULL,
    value text NOT NULL,
    at timestamptz NOT NULL DEFAULT now(),
    event text NOT NULL CHECK (event IN ('added', 'expiry_changed', 'removed', 'expired')),
    -- Null for Guardian itself (the expiry sweep).
    user_id bigint,
    actor text NOT NULL,
    added_via text CHECK (added_via IN ('console', 'import', 'api', 'cloudflare')),
    -- The expiry after the event (added, expiry_changed).
    expires_at timestamptz
  );
  CREATE INDEX ban_list_item_history_item_idx ON ban_list_item_history (ban_list_ref, item_id, id);
`;
