export const sql = `
  CREATE TABLE users (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email text NOT NULL,
    password_hash text NOT NULL,
    -- 0 is an administrator; any other level a regular user.
    level integer NOT NULL DEFAULT 1 CHECK (level >= 0),
    created_at timestamptz NOT NULL DEFAULT now(),
    disabled boolean NOT NULL DEFAULT false
  );
  -- Sign-in matches e-mails case-insensitively, so uniqueness does too.
  CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email));
`;
