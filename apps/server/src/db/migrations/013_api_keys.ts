export const sql = `
  -- Keys for scripts (fail2ban, CrowdSec, a SIEM): the secret is stored only as its SHA-256 (it is 32
  -- random bytes, so no slow hash is needed); the last four characters are kept to recognise it.
  CREATE TABLE api_keys (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name text NOT NULL,
    secret_sha256 bytea NOT NULL,
    last_four text NOT NULL,
    access text NOT NULL CHECK (access IN ('read', 'ban')),
    account_ids text[] NOT NULL DEFAULT '{}',
    list_ids text[] NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz,
    last_used_at timestamptz,
    revoked_at timestamptz
  );
  CREATE INDEX api_keys_user_idx ON api_keys (user_id);
`;
