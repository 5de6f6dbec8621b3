export const sql = `
  -- The trail is read newest first by (at, id): a time filter is then an index range instead of a walk
  -- back through every newer event (2,000,000 rows in the benchmark), and each filter people use has an
  -- index in that order: a person's own trail, an account's, and the rare outcomes (refused, failed),
  -- also of one person or one account ("what failed on this account": its few refused or failed events
  -- instead of a walk through all of them, or through all of the account's).
  DROP INDEX audit_events_user_idx;
  DROP INDEX audit_events_account_idx;
  DROP INDEX audit_events_at_idx;
  CREATE INDEX audit_events_at_idx ON audit_events (at, id);
  CREATE INDEX audit_events_user_idx ON audit_events (user_id, at, id);
  CREATE INDEX audit_events_account_idx ON audit_events (account_id, at, id);
  CREATE INDEX audit_events_outcome_idx ON audit_events (outcome, at, id) WHERE outcome <> 'success';
  CREATE INDEX audit_events_user_outcome_idx ON audit_events (user_id, outcome, at, id)
    WHERE outcome <> 'success';
  CREATE INDEX audit_events_account_outcome_idx ON audit_events (account_id, outcome, at, id)
    WHERE outcome <> 'success';
`;
