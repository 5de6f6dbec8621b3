export const sql = `
  -- User administration: the users table shows when each person last signed in.
  ALTER TABLE users ADD COLUMN last_sign_in_at timestamptz;

  -- One-time set-password links an administrator creates for a new person or a reset (shown once):
  -- the token is random, so stored as its SHA-256; used or expired links are refused.
  CREATE TABLE password_links (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_sha256 bytea NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at timestamptz
  );
  CREATE INDEX password_links_user_idx ON password_links (user_id);
`;
