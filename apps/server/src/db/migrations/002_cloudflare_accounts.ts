export const sql = `
  CREATE TABLE cloudflare_accounts (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- The person's own label; unique per user because ban-list creation names the account by it.
    account_name text NOT NULL,
    -- Cloudflare's account id.
    account_id text NOT NULL,
    -- AES-256-GCM; the plain token never touches the database.
    token_encrypted text NOT NULL,
    -- Kept apart so listing accounts never decrypts a token.
    token_last4 text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE UNIQUE INDEX cloudflare_accounts_user_name_key ON cloudflare_accounts (user_id, lower(account_name));
  CREATE UNIQUE INDEX cloudflare_accounts_user_account_key ON cloudflare_accounts (user_id, account_id);
`;
