export const sql = `
  -- One row per open session; its id travels in the session token (claim sid) and a token whose row is
  -- gone is refused. Signing out deletes the row; a password change and disabling the user delete all
  -- of theirs, for good (enabling the user again brings none back).
  CREATE TABLE sessions (
    id uuid PRIMARY KEY,
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
  );
  CREATE INDEX sessions_user_id_idx ON sessions (user_id, created_at);

  -- Replaced by the sessions table: its whole-second comparison let a token of the same second survive.
  ALTER TABLE users DROP COLUMN sessions_valid_after;
`;
