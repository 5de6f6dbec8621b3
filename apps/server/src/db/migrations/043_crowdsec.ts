export const sql = `
  -- CrowdSec as a bouncer (issue 39): a CrowdSec server's Local API and its bouncer key (encrypted with
  -- the token cipher, as Cloudflare tokens are), and how its pulls went.
  CREATE TABLE crowdsec_sources (
    server_id bigint PRIMARY KEY REFERENCES servers (id) ON DELETE CASCADE,
    lapi_url text NOT NULL,
    key_encrypted text NOT NULL,
    key_last_four text NOT NULL,
    pull_interval_seconds integer NOT NULL,
    -- false until a startup pull (every active decision) succeeded: the next pull asks for them all.
    started boolean NOT NULL DEFAULT false,
    -- The sweep claims a source by moving this forward, so one process queues its pull.
    next_pull_at timestamptz NOT NULL DEFAULT now(),
    -- A running pull holds the source until this time (a lease: a crashed run's lapses).
    pulling_until timestamptz,
    last_pull_at timestamptz,
    last_success_at timestamptz,
    last_error text,
    updated_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX crowdsec_sources_due_idx ON crowdsec_sources (next_pull_at);

  -- The ban decisions a source announced, by the Local API's id: pending (to hand to the lists),
  -- mirrored (taken by the group's policy), refused (with why), removing (deleted or expired at
  -- CrowdSec: to unban unless another decision still holds the address).
  CREATE TABLE crowdsec_decisions (
    server_id bigint NOT NULL REFERENCES crowdsec_sources (server_id) ON DELETE CASCADE,
    decision_id bigint NOT NULL,
    value text NOT NULL,
    scenario text NOT NULL,
    origin text NOT NULL,
    until timestamptz NOT NULL,
    state text NOT NULL CHECK (state IN ('pending', 'mirrored', 'refused', 'removing')),
    reason text,
    PRIMARY KEY (server_id, decision_id)
  );
  CREATE INDEX crowdsec_decisions_state_idx ON crowdsec_decisions (server_id, state);
  CREATE INDEX crowdsec_decisions_value_idx ON crowdsec_decisions (server_id, value);
`;
