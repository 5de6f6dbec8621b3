/**
 * Support tickets (modules/tickets): a person's ticket and its thread of plain-text messages. `seq`
 * takes the next number of a sequence on every message, assignment and close, so `ORDER BY seq DESC` is
 * "most recently active first" and the cursor of the person's list and the Helpdesk's queue; the
 * indexes serve both with or without a state or category filter. Alerts gain a `ticket` subject (a
 * reply for the person, a ticket waiting for administrators).
 */
export const sql = `
  CREATE SEQUENCE tickets_seq;
  CREATE TABLE tickets (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    subject text NOT NULL CHECK (length(subject) <= 150),
    category text NOT NULL CHECK (length(category) <= 40),
    state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'answered', 'closed')),
    assignee_id bigint REFERENCES users (id) ON DELETE SET NULL,
    message_count integer NOT NULL DEFAULT 0 CHECK (message_count >= 0),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    closed_at timestamptz,
    seq bigint NOT NULL DEFAULT nextval('tickets_seq')
  );
  CREATE INDEX tickets_user_seq_idx ON tickets (user_id, seq DESC);
  CREATE INDEX tickets_seq_idx ON tickets (seq DESC);
  CREATE INDEX tickets_state_seq_idx ON tickets (state, seq DESC);
  CREATE INDEX tickets_category_seq_idx ON tickets (category, seq DESC);
  CREATE INDEX tickets_assignee_seq_idx ON tickets (assignee_id, seq DESC);

  CREATE TABLE ticket_messages (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    ticket_id bigint NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
    -- Kept when the author is deleted (the thread still reads): their e-mail as it was.
    author_id bigint REFERENCES users (id) ON DELETE SET NULL,
    author_email text NOT NULL CHECK (length(author_email) <= 320),
    from_support boolean NOT NULL,
    body text NOT NULL CHECK (length(body) <= 5000),
    created_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX ticket_messages_ticket_idx ON ticket_messages (ticket_id, id);

  ALTER TABLE alerts DROP CONSTRAINT alerts_subject_type_check;
  ALTER TABLE alerts ADD CONSTRAINT alerts_subject_type_check
    CHECK (subject_type IN ('account', 'list', 'zone', 'server', 'token', 'ticket'));
`;
