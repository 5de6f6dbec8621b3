/**
 * Alerts (issue 38, modules/alerts): one row per cause while it is open or acknowledged, found by its
 * dedupe key (the partial unique index), so a cause that happens again counts on the same row. `seq`
 * orders a person's alerts by when they were last seen (a raise takes the next number): the page's
 * cursor, served by the indexes below for 100,000 alerts of one person, with or without a state or kind.
 * The addresses a person signed in from, for "a sign-in from a new address" (at most 50 a person).
 */
export const sql = `
  CREATE SEQUENCE alerts_seq;
  CREATE TABLE alerts (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind text NOT NULL CHECK (length(kind) <= 40),
    severity text NOT NULL CHECK (severity IN ('info', 'warning', 'critical')),
    state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'acknowledged', 'resolved', 'cleared')),
    dedupe_key text NOT NULL CHECK (length(dedupe_key) <= 400),
    title text NOT NULL CHECK (length(title) <= 500),
    subject_type text CHECK (subject_type IN ('account', 'list', 'zone', 'server', 'token')),
    subject_id text CHECK (length(subject_id) <= 100),
    subject_name text CHECK (length(subject_name) <= 200),
    count integer NOT NULL DEFAULT 1 CHECK (count > 0),
    first_seen_at timestamptz NOT NULL DEFAULT now(),
    last_seen_at timestamptz NOT NULL DEFAULT now(),
    acknowledged_at timestamptz,
    resolved_at timestamptz,
    seq bigint NOT NULL DEFAULT nextval('alerts_seq')
  );
  CREATE UNIQUE INDEX alerts_live_cause_idx ON alerts (user_id, dedupe_key)
    WHERE state IN ('open', 'acknowledged');
  CREATE INDEX alerts_user_seq_idx ON alerts (user_id, seq DESC);
  CREATE INDEX alerts_user_state_seq_idx ON alerts (user_id, state, seq DESC);
  CREATE INDEX alerts_user_kind_seq_idx ON alerts (user_id, kind, seq DESC);

  CREATE TABLE alert_sign_in_addresses (
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    address text NOT NULL CHECK (length(address) <= 64),
    last_seen_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, address)
  );
`;
