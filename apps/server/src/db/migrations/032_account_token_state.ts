/**
 * What Guardian last learned of each account's API token at Cloudflare (issue 35 item 4): its status
 * (`active`, `disabled`, `expired` as Cloudflare's verify answers; `revoked` when Cloudflare no longer
 * knows it), when it expires, when it was last answered, and when it is due to be asked again. Set
 * on add and on a token replaced, then rechecked by every process's sweep
 * (modules/accounts/token-checks.ts), which takes the accounts due first: the index serves that pick.
 * Accounts added before this have no state yet and are due at once.
 */
export const sql = `
  ALTER TABLE cloudflare_accounts
    ADD COLUMN token_status text CHECK (token_status IN ('active', 'disabled', 'expired', 'revoked')),
    ADD COLUMN token_expires_on timestamptz,
    ADD COLUMN token_checked_at timestamptz,
    ADD COLUMN token_check_due timestamptz NOT NULL DEFAULT now();
  CREATE INDEX cloudflare_accounts_token_check_due_idx ON cloudflare_accounts (token_check_due, id);
`;
