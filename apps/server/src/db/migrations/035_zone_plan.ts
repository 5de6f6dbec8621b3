export const sql = `
  -- The zone's Cloudflare plan as its zones answer says (plan.legacy_id: free, pro, business, enterprise),
  -- kept by every zones sync and zone add. An account's Lists quotas follow the highest plan among its
  -- zones when the person has not set one (banlists/list-capacity.ts). NULL: Cloudflare did not say, or
  -- named a plan Guardian does not know.
  ALTER TABLE zones
    ADD COLUMN plan text CHECK (plan IN ('free', 'pro', 'business', 'enterprise'));
`;
