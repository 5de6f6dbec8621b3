/**
 * What the WAF custom rules that use a ban list say it is for (issue 35 item 9): 'block' when the rules
 * that name it block or challenge its addresses, 'allow' when they skip (let them through); null when no
 * rule Guardian has read names it, or the rules disagree. Learned whenever Guardian reads a zone's rules
 * (modules/firewall-rules); the person's own choice (purpose, migration 034) still wins.
 */
export const sql = `
  ALTER TABLE ban_lists ADD COLUMN rule_purpose text CHECK (rule_purpose IN ('block', 'allow'));
`;
