/**
 * Notifications (issue 38, modules/notifications): each person's choice of where a kind of alert goes
 * (a row only for the kinds they changed; the defaults are the contract's), and the e-mails held for
 * the batching rule: one e-mail per person and kind per window, the alerts raised meanwhile held here
 * until the window ends and sent as one digest. A batch row is claimed by one process at a time
 * (`claimed_until`), so two processes never send the same digest; a failed send keeps the held rows and
 * waits (`due_at`, `attempts`) before the next try.
 */
export const sql = `
  CREATE TABLE notification_preferences (
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind text NOT NULL CHECK (length(kind) <= 40),
    email boolean NOT NULL,
    webhook boolean NOT NULL,
    PRIMARY KEY (user_id, kind)
  );

  CREATE TABLE notification_mail_batches (
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind text NOT NULL CHECK (length(kind) <= 40),
    -- When this kind last e-mailed this person: the next e-mail waits until the window from it ends.
    last_sent_at timestamptz,
    -- When the held alerts may be sent (null: none held).
    due_at timestamptz,
    attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_error text CHECK (length(last_error) <= 500),
    claimed_until timestamptz,
    PRIMARY KEY (user_id, kind)
  );
  CREATE INDEX notification_mail_batches_due_idx ON notification_mail_batches (due_at)
    WHERE due_at IS NOT NULL;

  CREATE TABLE notification_mail_held (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind text NOT NULL CHECK (length(kind) <= 40),
    -- No reference: a held alert resolved and swept away is still told of.
    alert_id bigint NOT NULL,
    severity text NOT NULL CHECK (length(severity) <= 10),
    title text NOT NULL CHECK (length(title) <= 500),
    raised_at timestamptz NOT NULL
  );
  CREATE INDEX notification_mail_held_batch_idx ON notification_mail_held (user_id, kind, id);
`;
