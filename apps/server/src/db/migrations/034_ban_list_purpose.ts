/**
 * A ban list's purpose as its person set it (issue 35 item 9): 'block' (a blocklist) or 'allow' (an
 * allowlist, whose items Cloudflare lets through). Null until set: then the purpose is inferred from
 * the list's name when it is read (modules/banlists/list-purpose.ts), so nothing is stored for it.
 */
export const sql = `
  ALTER TABLE ban_lists ADD COLUMN purpose text CHECK (purpose IN ('block', 'allow'));
`;
