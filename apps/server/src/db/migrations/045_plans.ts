/**
 * Plans (issue 38, modules/plans): what each person may add. Every person has one (`users.plan_id`);
 * exactly one plan is the default (the partial unique index), which a new person gets from the
 * trigger whatever inserts them (the Users page, the users CLI, the demo's seed). Every existing
 * person gets "Standard", generous enough that nothing they have today is refused.
 */
export const sql = `
  CREATE TABLE plans (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
    accounts integer NOT NULL CHECK (accounts >= 0),
    zones integer NOT NULL CHECK (zones >= 0),
    lists integer NOT NULL CHECK (lists >= 0),
    list_items integer NOT NULL CHECK (list_items >= 0),
    api_keys integer NOT NULL CHECK (api_keys >= 0),
    servers integer NOT NULL CHECK (servers >= 0),
    templates integer NOT NULL CHECK (templates >= 0),
    report_range text NOT NULL CHECK (report_range IN ('24h', '7d', '30d')),
    is_default boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE UNIQUE INDEX plans_name_idx ON plans (lower(name));
  CREATE UNIQUE INDEX plans_one_default_idx ON plans (is_default) WHERE is_default;

  INSERT INTO plans (name, accounts, zones, lists, list_items, api_keys, servers, templates, report_range, is_default)
    VALUES ('Standard', 100, 5000, 1000, 10000000, 20, 500, 100, '30d', true);

  ALTER TABLE users ADD COLUMN plan_id bigint REFERENCES plans (id);
  UPDATE users SET plan_id = (SELECT id FROM plans WHERE is_default);
  ALTER TABLE users ALTER COLUMN plan_id SET NOT NULL;
  CREATE INDEX users_plan_idx ON users (plan_id);

  CREATE FUNCTION users_default_plan() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.plan_id IS NULL THEN
      NEW.plan_id := (SELECT id FROM plans WHERE is_default);
    END IF;
    RETURN NEW;
  END;
  $$;
  CREATE TRIGGER users_default_plan BEFORE INSERT ON users
    FOR EACH ROW EXECUTE FUNCTION users_default_plan();
`;
