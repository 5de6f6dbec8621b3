export const sql = `
  -- The audit trail: every change made through Guardian, append-only. No foreign keys: the trail
  -- outlives the people, accounts and zones it names.
  CREATE TABLE audit_events (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at timestamptz NOT NULL DEFAULT now(),
    user_id bigint,
    actor text NOT NULL,
    address text NOT NULL,
    action text NOT NULL,
    request text NOT NULL,
    account_id text,
    zone_id text,
    target jsonb NOT NULL DEFAULT '{}',
    outcome text NOT NULL CHECK (outcome IN ('success', 'refused', 'failed')),
    status integer NOT NULL,
    message text
  );
  -- A person's own trail, and everyone's by account, newest first (pages by id).
  CREATE INDEX audit_events_user_idx ON audit_events (user_id, id DESC);
  CREATE INDEX audit_events_account_idx ON audit_events (account_id, id DESC);
  CREATE INDEX audit_events_at_idx ON audit_events (at);

  -- Append-only: rows are never changed, and only the retention sweep (which says so for its own
  -- transaction) deletes them.
  CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $fn$
  BEGIN
    IF TG_OP = 'DELETE' AND current_setting('guardian.audit_sweep', true) = 'on' THEN
      RETURN OLD;
    END IF;
    RAISE EXCEPTION 'audit_events is append-only';
  END
  $fn$;
  CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
    FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
`;
