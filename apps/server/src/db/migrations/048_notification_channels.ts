/**
 * Notification channels (issue 38, modules/notification-webhooks): where alerts are posted besides the
 * console. A channel's URL and a webhook's signing secret are encrypted (TokenCipher); `url_masked` is
 * what the page shows. The row of GUARDIAN_NOTIFICATION_WEBHOOK_URL is `from_environment` (one at most).
 * Its last delivery, failures in a row and drops are kept on it for the page; `failing_alert`: its
 * "keeps failing" alert is raised (so a success clears it, and only then asks the alerts).
 *
 * Deliveries wait in `notification_deliveries` until a process's sweep claims them (`FOR UPDATE SKIP
 * LOCKED`, `run_after` moved on by the claim as a lease): one row per alert and channel, its
 * `message_id` (the Standard Webhooks `webhook-id`) the same on every attempt so a receiver can drop
 * a repeat.
 */
export const sql = `
  CREATE TABLE notification_channels (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    type text NOT NULL CHECK (type IN ('webhook', 'slack', 'teams', 'discord')),
    url_encrypted text NOT NULL CHECK (length(url_encrypted) <= 4000),
    url_masked text NOT NULL CHECK (length(url_masked) <= 300),
    signing_secret_encrypted text CHECK (length(signing_secret_encrypted) <= 400),
    enabled boolean NOT NULL DEFAULT true,
    from_environment boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_delivery_at timestamptz,
    last_delivery_ok boolean,
    last_delivery_status integer,
    last_delivery_message text CHECK (length(last_delivery_message) <= 400),
    failing_count integer NOT NULL DEFAULT 0,
    failing_alert boolean NOT NULL DEFAULT false,
    dropped_count bigint NOT NULL DEFAULT 0
  );
  CREATE UNIQUE INDEX notification_channels_environment_idx ON notification_channels (from_environment)
    WHERE from_environment;

  CREATE TABLE notification_deliveries (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    channel_id bigint NOT NULL REFERENCES notification_channels (id) ON DELETE CASCADE,
    message_id text NOT NULL CHECK (length(message_id) <= 100),
    notice jsonb NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    run_after timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX notification_deliveries_due_idx ON notification_deliveries (run_after);
  CREATE INDEX notification_deliveries_channel_idx ON notification_deliveries (channel_id, id);
`;
