/**
 * Server Management, second slice (issue 39): review, the signed webhook, per-hour counters.
 * - A group may hold its servers' bans for review: they wait in `server_ban_reviews` until a person
 *   approves them (then they are queued as `server_bans`, like any ban) or rejects them.
 * - A server's signing secret (Standard Webhooks, `whsec_...`), encrypted as Cloudflare tokens are;
 *   the webhook ids it sent in the last minutes, so a replayed message is refused.
 * - The 24 h / 7 d figures of the server list from per-hour counters, not from counting events; the
 *   latest refusal on the server's row. `server_events` then only serves the ceiling's hour.
 */
export const sql = `
  ALTER TABLE server_groups ADD COLUMN review boolean NOT NULL DEFAULT false;

  ALTER TABLE servers ADD COLUMN signing_secret_encrypted text;
  ALTER TABLE servers ADD COLUMN refused_at timestamptz;
  ALTER TABLE servers ADD COLUMN refused_reason text;

  CREATE TABLE server_ban_reviews (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    server_id bigint NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    value text NOT NULL,
    comment text NOT NULL DEFAULT '',
    -- The ban's length, counted from its approval (null: until removed).
    seconds integer,
    state text NOT NULL DEFAULT 'waiting' CHECK (state IN ('waiting', 'approved', 'rejected', 'withdrawn')),
    decided_by text,
    created_at timestamptz NOT NULL DEFAULT now(),
    decided_at timestamptz
  );
  CREATE INDEX server_ban_reviews_waiting_idx ON server_ban_reviews (server_id, id) WHERE state = 'waiting';

  CREATE TABLE server_webhook_ids (
    server_id bigint NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    message_id text NOT NULL CHECK (length(message_id) <= 100),
    at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (server_id, message_id)
  );
  CREATE INDEX server_webhook_ids_at_idx ON server_webhook_ids (at);

  CREATE TABLE server_counts (
    server_id bigint NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    hour timestamptz NOT NULL,
    bans integer NOT NULL DEFAULT 0,
    unbans integer NOT NULL DEFAULT 0,
    refused integer NOT NULL DEFAULT 0,
    PRIMARY KEY (server_id, hour)
  );
  CREATE INDEX server_counts_hour_idx ON server_counts (hour);

  -- What was counted from events so far, into the counters; the latest refusal onto the server.
  INSERT INTO server_counts (server_id, hour, bans, unbans, refused)
  SELECT server_id, date_trunc('hour', at),
         count(*) FILTER (WHERE kind = 'ban'), count(*) FILTER (WHERE kind = 'unban'),
         count(*) FILTER (WHERE kind = 'refused')
    FROM server_events GROUP BY server_id, date_trunc('hour', at);
  UPDATE servers s SET refused_at = r.at, refused_reason = r.reason
    FROM (SELECT DISTINCT ON (server_id) server_id, at, reason FROM server_events
           WHERE kind = 'refused' ORDER BY server_id, at DESC) r
   WHERE r.server_id = s.id;
  CREATE INDEX server_events_at_idx ON server_events (at);
`;
