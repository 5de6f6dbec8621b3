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
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (account_ref, list_id)
  );

  -- The local mirror of a list's items: paged and searched here, never downloaded whole.
  CREATE TABLE ban_list_items (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    ban_list_ref bigint NOT NULL REFERENCES ban_lists (id) ON DELETE CASCADE,
    -- Cloudflare's item id.
    item_id text NOT NULL,
    ip text NOT NULL,
    comment text NOT NULL DEFAULT '',
    created_on timestamptz NOT NULL,
    UNIQUE (ban_list_ref, item_id)
  );
  CREATE INDEX ban_list_items_page_idx ON ban_list_items (ban_list_ref, id DESC);
  -- Search on IP and comment with ILIKE '%text%' over 500,000 rows needs trigrams.
  CREATE INDEX ban_list_items_ip_trgm_idx ON ban_list_items USING gin (ip gin_trgm_ops);
  CREATE INDEX ban_list_items_comment_trgm_idx ON ban_list_items USING gin (comment gin_trgm_ops);
`;
