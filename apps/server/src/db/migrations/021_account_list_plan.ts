export const sql = `
  -- The account's Cloudflare plan for its Lists quotas (lists, items), as the person set it: Cloudflare's
  -- API does not say an account's plan (an account is 'standard' or 'enterprise'). NULL: Guardian infers
  -- what it can from the mirror, else assumes Free (banlists/list-capacity.ts).
  ALTER TABLE cloudflare_accounts
    ADD COLUMN list_plan text CHECK (list_plan IN ('free', 'pro', 'business', 'enterprise'));
`;
