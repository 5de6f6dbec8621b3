/**
 * The alerts page's filters that 041's indexes did not serve by keyset (issue 38's 100,000 alerts of
 * one person): `state=active` (open or acknowledged, about 1 in 100 alerts) read the person's
 * `(user_id, seq)` index and threw away about 99 of every 100 entries until its page was full, and a
 * severity read every entry of other severities before its page (a rare one, most of the person's).
 * With these, every filter's first page and each next one reads its own rows only: the live alerts'
 * own index, and one by severity like the ones by state and kind.
 */
export const sql = `
  CREATE INDEX alerts_user_live_seq_idx ON alerts (user_id, seq DESC) WHERE state IN ('open', 'acknowledged');
  CREATE INDEX alerts_user_severity_seq_idx ON alerts (user_id, severity, seq DESC);
`;
