export const sql = `
  CREATE TABLE ban_lists (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_ref bigint NOT NULL REFERENCES cloudflare_accounts (id) ON DELETE CASCADE,
    -- Cloudflare's list id.
    list_id text NOT NULL,
    list_name text NOT NULL,
    kind text NOT NULL CHECK (kind IN ('ip', 'redirect', 'hostname', 'asn')),
    -- Maintained in the same transaction as every item write, so the count shown matches the rows.
    items_count integer NOT NULL DEFAULT 0,
    -- Bumped with every change of the list's items: a cached page of an older version is never served.
    items_version bigint NOT NULL DEFAULT 0,
    -- The items' ids run from first_item_id to next_item_id - 1, less the deleted ones recorded in
    -- ban_list_item_holes: the page at any offset of the default order is found by arithmetic and
    -- read by a range of the primary key, instead of walking past every row before it.
    first_item_id bigint NOT NULL DEFAULT 1,
    next_item_id bigint NOT NULL DEFAULT 1,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (account_ref, list_id)
  );
  -- The items routes find a list by Cloudflare's id (then check its account belongs to the person).
  CREATE INDEX ban_lists_list_id_idx ON ban_lists (list_id);

  -- The local mirror of the lists' items, paged and searched here, never downloaded whole. One
  -- partition per list (ban_list_items_<ban_lists.id>, created with the list's first items): a sync
  -- loads a fresh table and swaps it in, and deleting or emptying a list drops its table, all without
  -- rewriting half a million rows or leaving them dead for a vacuum that PGlite never runs.
  -- Partitions are dropped by the code that deletes their list (there is no foreign key to cascade).
  CREATE TABLE ban_list_items (
    ban_list_ref bigint NOT NULL,
    -- Guardian's id of the item within its list, never reused: ascending in the order items reached
    -- the mirror (a sync numbers its items on from the list's next_item_id).
    id bigint NOT NULL,
    -- Cloudflare's item id.
    item_id text NOT NULL,
    -- The item's value (an IP address or CIDR for ip lists). Byte order ("C") lets the btree serve
    -- the prefix search and the sort.
    ip text COLLATE "C" NOT NULL,
    comment text NOT NULL DEFAULT '',
    created_on timestamptz NOT NULL,
    PRIMARY KEY (ban_list_ref, id)
  ) PARTITION BY LIST (ban_list_ref);
  CREATE INDEX ban_list_items_ip_idx ON ban_list_items (ban_list_ref, ip);
  -- Comment search is a substring search (ILIKE '%text%'), which needs trigrams over 500,000 rows.
  CREATE INDEX ban_list_items_comment_trgm_idx ON ban_list_items USING gin (comment gin_trgm_ops);

  -- Ids of deleted items between a list's first_item_id and next_item_id (a sync starts afresh).
  CREATE TABLE ban_list_item_holes (
    ban_list_ref bigint NOT NULL REFERENCES ban_lists (id) ON DELETE CASCADE,
    id bigint NOT NULL,
    PRIMARY KEY (ban_list_ref, id)
  );
`;
