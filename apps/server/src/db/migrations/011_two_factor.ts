export const sql = `
  -- Two-factor sign-in (TOTP, RFC 6238). The secret is encrypted like Cloudflare tokens (TokenCipher);
  -- it is stored while the person enrols and counts once totp_enabled_at is set. totp_last_step is
  -- the time step of the last code accepted, so a code is never accepted twice (replay).
  ALTER TABLE users ADD COLUMN totp_secret text;
  ALTER TABLE users ADD COLUMN totp_enabled_at timestamptz;
  ALTER TABLE users ADD COLUMN totp_last_step bigint;

  -- Ten one-time recovery codes per person, shown once; high-entropy, so stored as their SHA-256.
  CREATE TABLE recovery_codes (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_sha256 bytea NOT NULL,
    used_at timestamptz
  );
  CREATE INDEX recovery_codes_user_idx ON recovery_codes (user_id);

  -- Settings an administrator changes for everyone (e.g. 'two_factor_required': true).
  CREATE TABLE settings (
    key text PRIMARY KEY,
    value jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  );
`;
