export const sql = `
  -- Background operations as people see them (modules/jobs/): the queue itself is pg-boss's tables
  -- (schema pgboss, created by pg-boss at start); this row shares its job's id and says what the job
  -- is, who started it, how far it got and how it ended, in words.
  CREATE TABLE jobs (
    id uuid PRIMARY KEY,
    kind text NOT NULL,
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    account_id bigint REFERENCES cloudflare_accounts (id) ON DELETE SET NULL,
    -- What it works on, for people: a list's name, "all lists"...
    target text NOT NULL DEFAULT '',
    -- What it works on, for the code (a list's Cloudflare id...).
    data jsonb NOT NULL DEFAULT '{}',
    state text NOT NULL DEFAULT 'queued'
      CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
    progress_done bigint NOT NULL DEFAULT 0,
    progress_total bigint,
    attempts integer NOT NULL DEFAULT 0,
    result jsonb,
    error text,
    -- A running job's worker touches this every few seconds; a silent one's job is given back.
    heartbeat_at timestamptz,
    cancel_requested boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    started_at timestamptz,
    finished_at timestamptz
  );
  CREATE INDEX jobs_user_idx ON jobs (user_id, created_at DESC);
  CREATE INDEX jobs_created_idx ON jobs (created_at DESC);
  CREATE INDEX jobs_running_idx ON jobs (heartbeat_at) WHERE state = 'running';

  -- When each person last looked at their jobs: the bell lights for a job that ended after it.
  CREATE TABLE jobs_seen (
    user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    seen_at timestamptz NOT NULL
  );

  -- Cloudflare's per-token request budget, counted here so that every server process on this
  -- database shares it: requests per token and second, and how long Cloudflare told us to hold off.
  CREATE TABLE cloudflare_budget (
    token_key text PRIMARY KEY,
    blocked_until timestamptz NOT NULL DEFAULT '-infinity'
  );
  CREATE TABLE cloudflare_budget_seconds (
    token_key text NOT NULL REFERENCES cloudflare_budget (token_key) ON DELETE CASCADE,
    second bigint NOT NULL,
    requests integer NOT NULL,
    PRIMARY KEY (token_key, second)
  );

  -- Takes one request of the token's budget: 0 when it may be sent now (and counts it), else the
  -- milliseconds to wait (counting nothing). The first statement locks the token's row until the
  -- statement that called this ends, so takers of one token queue there in every process; the
  -- statements after it see what the takers before them committed (each has its own snapshot).
  CREATE FUNCTION cloudflare_budget_take(key text, budget integer, window_seconds integer)
  RETURNS double precision LANGUAGE plpgsql AS $fn$
  DECLARE
    blocked timestamptz;
    now_ms double precision := extract(epoch FROM clock_timestamp()) * 1000;
    now_second bigint := floor(now_ms / 1000);
    used integer;
    oldest bigint;
  BEGIN
    INSERT INTO cloudflare_budget AS b (token_key) VALUES (key)
      ON CONFLICT (token_key) DO UPDATE SET token_key = b.token_key
      RETURNING b.blocked_until INTO blocked;
    IF blocked > clock_timestamp() THEN
      RETURN extract(epoch FROM blocked) * 1000 - now_ms;
    END IF;
    DELETE FROM cloudflare_budget_seconds
      WHERE token_key = key AND second <= now_second - window_seconds;
    SELECT coalesce(sum(requests), 0), min(second) INTO used, oldest
      FROM cloudflare_budget_seconds WHERE token_key = key;
    IF used >= budget THEN
      RETURN greatest(1, (oldest + window_seconds) * 1000 - now_ms);
    END IF;
    INSERT INTO cloudflare_budget_seconds AS s (token_key, second, requests) VALUES (key, now_second, 1)
      ON CONFLICT (token_key, second) DO UPDATE SET requests = s.requests + 1;
    RETURN 0;
  END
  $fn$;
`;
