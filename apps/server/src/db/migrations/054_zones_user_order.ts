/**
 * The zones screen's page (issue 36: every read within budget from the database alone). Read through
 * the person's accounts, a page had to gather and sort all of their zones (1,000) for each request;
 * with the owner on the row (an account never changes owner, so the copy never goes stale: set by
 * ZonesRepository on insert) a page in the default order (domain) or by status is a walk of one of
 * these indexes, and the count an index-only scan. Bytewise order ("C") as the page sorts, whatever the
 * database's locale. Rows of a deleted account still go by the account_ref cascade.
 */
export const sql = `
  ALTER TABLE zones ADD COLUMN user_id bigint;
  UPDATE zones z SET user_id = a.user_id FROM cloudflare_accounts a WHERE a.id = z.account_ref;
  ALTER TABLE zones ALTER COLUMN user_id SET NOT NULL;
  CREATE INDEX zones_user_domain_idx ON zones (user_id, domain COLLATE "C", id);
  CREATE INDEX zones_user_status_idx ON zones (user_id, status COLLATE "C", domain COLLATE "C", id);
`;
