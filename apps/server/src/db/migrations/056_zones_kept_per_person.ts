/**
 * The zones screen's cold reads (issue 36), kept by the database in the transaction of each change:
 * - each person's number of zones beside their version (`zone_list_versions.zones`), so a page's count
 *   reads one row, not the person's 1,000 (PGlite has no autovacuum, so counting them was a heap scan);
 * - the account's name on each of its zones (`zones.account_name`), so the Account Name order walks an
 *   index, bytewise without case as the page sorts, and a search reads the zone rows alone, found by
 *   trigram indexes (a search of three letters or digits in a row; ZonesRepository's zoneSearch).
 * Statement triggers on `zones` bump the person's version and move their count for every insert,
 * update and delete (an account's or a person's removal by cascade included); a row trigger on
 * `cloudflare_accounts` copies a rename, or a move to another person, onto the account's zones, which
 * then bumps both people's versions. Nothing else writes either column.
 */
export const sql = `
  ALTER TABLE zones ADD COLUMN account_name text;
  UPDATE zones z SET account_name = a.account_name FROM cloudflare_accounts a WHERE a.id = z.account_ref;
  ALTER TABLE zones ALTER COLUMN account_name SET NOT NULL;
  CREATE INDEX zones_user_account_name_idx
    ON zones (user_id, (lower(account_name) COLLATE "C"), domain COLLATE "C", id);

  -- The search (domains and account names containing it, without case) by trigrams.
  CREATE INDEX zones_domain_trgm_idx ON zones USING gin (lower(domain) gin_trgm_ops) WITH (fastupdate = off);
  CREATE INDEX zones_account_name_trgm_idx ON zones USING gin (lower(account_name) gin_trgm_ops) WITH (fastupdate = off);

  ALTER TABLE zone_list_versions ADD COLUMN zones integer NOT NULL DEFAULT 0;
  INSERT INTO zone_list_versions (user_id, version, zones)
  SELECT user_id, 1, count(*) FROM zones GROUP BY user_id
  ON CONFLICT (user_id) DO UPDATE SET version = zone_list_versions.version + 1, zones = EXCLUDED.zones;

  -- A statement's rows counted out of (old) and into (new) their people's numbers; each person
  -- touched gets a new version. A person being removed (the cascade from users) is left alone:
  -- their row goes with them.
  CREATE FUNCTION zones_counted() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    changes text;
  BEGIN
    IF TG_OP = 'INSERT' THEN
      changes := 'SELECT user_id, 1 AS delta FROM new_zones';
    ELSIF TG_OP = 'DELETE' THEN
      changes := 'SELECT user_id, -1 AS delta FROM old_zones';
    ELSE
      changes := 'SELECT user_id, 1 AS delta FROM new_zones UNION ALL SELECT user_id, -1 FROM old_zones';
    END IF;
    EXECUTE format($count$
      INSERT INTO zone_list_versions AS v (user_id, version, zones)
      SELECT c.user_id, 1, sum(c.delta) FROM (%s) AS c
      WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = c.user_id)
      GROUP BY c.user_id
      ON CONFLICT (user_id) DO UPDATE SET version = v.version + 1, zones = v.zones + EXCLUDED.zones
    $count$, changes);
    RETURN NULL;
  END $$;

  CREATE TRIGGER zones_counted_in AFTER INSERT ON zones
    REFERENCING NEW TABLE AS new_zones FOR EACH STATEMENT EXECUTE FUNCTION zones_counted();
  CREATE TRIGGER zones_counted_out AFTER DELETE ON zones
    REFERENCING OLD TABLE AS old_zones FOR EACH STATEMENT EXECUTE FUNCTION zones_counted();
  CREATE TRIGGER zones_counted_again AFTER UPDATE ON zones
    REFERENCING OLD TABLE AS old_zones NEW TABLE AS new_zones FOR EACH STATEMENT EXECUTE FUNCTION zones_counted();

  -- The account's owner and name, as its zones carry them.
  CREATE FUNCTION cloudflare_accounts_onto_zones() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE zones SET user_id = NEW.user_id, account_name = NEW.account_name WHERE account_ref = NEW.id;
    RETURN NULL;
  END $$;

  CREATE TRIGGER cloudflare_accounts_onto_zones AFTER UPDATE OF user_id, account_name ON cloudflare_accounts
    FOR EACH ROW WHEN ((OLD.user_id, OLD.account_name) IS DISTINCT FROM (NEW.user_id, NEW.account_name))
    EXECUTE FUNCTION cloudflare_accounts_onto_zones();
`;
