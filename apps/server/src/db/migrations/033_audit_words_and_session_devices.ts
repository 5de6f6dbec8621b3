export const sql = `
  -- Each event in words, written when it happened ("ada@example.com removed 203.0.113.7 from
  -- block_list (account Acme)"), so the trail answers "who removed 203.0.113.7?" long after the item,
  -- list or person is gone. Earlier events have none (''). Searched by any part, so a trigram index.
  ALTER TABLE audit_events ADD COLUMN summary text NOT NULL DEFAULT ''
    CONSTRAINT audit_events_summary_length CHECK (length(summary) <= 1000);
  CREATE INDEX audit_events_summary_idx ON audit_events USING gin (summary gin_trgm_ops);

  -- Where a session was opened (the browser's User-Agent, cut to 256 characters, and the address) and
  -- when it was last used (kept to the minute), so a person tells their sessions apart.
  ALTER TABLE sessions
    ADD COLUMN user_agent text CONSTRAINT sessions_user_agent_length CHECK (length(user_agent) <= 256),
    ADD COLUMN address text,
    ADD COLUMN last_seen_at timestamptz;
`;
