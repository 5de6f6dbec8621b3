/**
 * The `jobs` table becomes the queue itself (src/jobs/README.md): pg-boss's tables are no longer used.
 * A queued job is taken once its `run_after` has come (a retry's backoff moves it on); the runs it
 * gets were kept in its details (`maxAttempts`, else the queue's default of 3); a job of a kind that takes
 * its Cloudflare account's turn runs alone among those of its account, held by a unique index so two
 * processes cannot both start one. Jobs pg-boss still held are in this table as queued, and are
 * taken from here.
 */
export const sql = `
  ALTER TABLE jobs
    ADD COLUMN run_after timestamptz NOT NULL DEFAULT now(),
    ADD COLUMN max_attempts integer NOT NULL DEFAULT 3,
    ADD COLUMN account_turn boolean NOT NULL DEFAULT false;
  UPDATE jobs SET max_attempts = (data->>'maxAttempts')::int WHERE jsonb_typeof(data->'maxAttempts') = 'number';
  UPDATE jobs SET data = data - 'maxAttempts' WHERE data ? 'maxAttempts';
  CREATE INDEX jobs_queued_idx ON jobs (run_after, created_at) WHERE state = 'queued';
  CREATE UNIQUE INDEX jobs_account_turn_idx ON jobs (account_id) WHERE state = 'running' AND account_turn;
  DROP SCHEMA IF EXISTS pgboss CASCADE;
`;
