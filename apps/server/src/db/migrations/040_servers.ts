export const sql = `
  -- Server Management (issue 39). A group's policy: the lists its bans go to (ban_lists rows of the
  -- owner's accounts), expiries, the comment template, an allowlist, a ceiling, review.
  CREATE TABLE server_groups (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name text NOT NULL,
    default_seconds integer,
    max_seconds integer,
    comment_template text NOT NULL,
    allowlist text[] NOT NULL DEFAULT '{}',
    ceiling_per_hour integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE UNIQUE INDEX server_groups_name_idx ON server_groups (user_id, lower(name));
  CREATE TABLE server_group_lists (
    group_id bigint NOT NULL REFERENCES server_groups (id) ON DELETE CASCADE,
    ban_list_ref bigint NOT NULL REFERENCES ban_lists (id) ON DELETE CASCADE,
    PRIMARY KEY (group_id, ban_list_ref)
  );

  -- A server's key is stored only as its SHA-256 (32 random bytes: no slow hash needed), as API keys are.
  CREATE TABLE servers (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    group_id bigint NOT NULL REFERENCES server_groups (id),
    name text NOT NULL,
    integration text NOT NULL CHECK (integration IN ('fail2ban', 'crowdsec', 'webhook', 'script')),
    expected_interval_minutes integer NOT NULL,
    secret_sha256 bytea NOT NULL,
    last_four text NOT NULL,
    version text,
    last_seen_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz
  );
  CREATE INDEX servers_user_idx ON servers (user_id);
  CREATE INDEX servers_group_idx ON servers (group_id);

  -- What each server sent: bans, unbans and refused calls with the reason (its counts of 24 hours and
  -- 7 days, the ceiling's hour). Kept 8 days.
  CREATE TABLE server_events (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    server_id bigint NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    at timestamptz NOT NULL DEFAULT now(),
    kind text NOT NULL CHECK (kind IN ('ban', 'unban', 'refused')),
    address text,
    reason text
  );
  CREATE INDEX server_events_server_idx ON server_events (server_id, kind, at);

  -- Bans and unbans on their way to Cloudflare: one row per target list, written by the account's
  -- 'server-bans' job (many servers' rows in the fewest list writes), pending until Cloudflare has
  -- them (done), or refused by it for good (failed, with why).
  CREATE TABLE server_bans (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    server_id bigint NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    account_ref bigint NOT NULL REFERENCES cloudflare_accounts (id) ON DELETE CASCADE,
    ban_list_ref bigint NOT NULL REFERENCES ban_lists (id) ON DELETE CASCADE,
    action text NOT NULL CHECK (action IN ('ban', 'unban')),
    value text NOT NULL,
    comment text NOT NULL DEFAULT '',
    expires_at timestamptz,
    state text NOT NULL CHECK (state IN ('pending', 'done', 'failed')),
    error text,
    created_at timestamptz NOT NULL DEFAULT now(),
    done_at timestamptz
  );
  CREATE INDEX server_bans_pending_idx ON server_bans (account_ref, id) WHERE state = 'pending';
  CREATE INDEX server_bans_server_idx ON server_bans (server_id, state);
`;
