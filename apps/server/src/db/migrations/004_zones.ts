export const sql = `
  -- The local mirror of the user's zones (refreshed by sync and by every zone write), so the zones
  -- screen lists 1,000 zones in one query; it is also the ownership check for DNS and rules.
  CREATE TABLE zones (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_ref bigint NOT NULL REFERENCES cloudflare_accounts (id) ON DELETE CASCADE,
    -- Cloudflare's zone id: the id the API and the browser use.
    zone_id text NOT NULL,
    domain text NOT NULL,
    status text NOT NULL,
    name_servers text[] NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (account_ref, zone_id)
  );
  CREATE INDEX zones_zone_id_idx ON zones (zone_id);

  -- Bumped in the same transaction as every write to a user's zones, so a zones list kept in memory
  -- is known to be current after one primary-key read, in every server process.
  CREATE TABLE zone_list_versions (
    user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    version bigint NOT NULL
  );
`;
