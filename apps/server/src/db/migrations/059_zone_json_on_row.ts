/**
 * The zones screen's cold reads on PGlite (issue 36): building each zone's JSON (`json_build_object`
 * of its six fields) was half of a page's database time, and of the whole list's. Each zone's JSON, as
 * the contract's `Zone` is answered, is now kept on its row (`zone_json`), written by a row trigger
 * whenever a field it shows is written: the sync's insert and update, an account's rename or move
 * copied onto its zones (migration 056). A page and the list join those texts in their order. The
 * account's Cloudflare id is read from its row; it never changes (an account is one Cloudflare id).
 */
export const sql = `
  CREATE FUNCTION zone_json_of(z zones) RETURNS text LANGUAGE sql STABLE AS $$
    SELECT json_build_object('id', z.zone_id, 'domain', z.domain, 'accountName', z.account_name,
             'account_id', (SELECT a.account_id FROM cloudflare_accounts a WHERE a.id = z.account_ref),
             'status', z.status, 'name_servers', z.name_servers)::text
  $$;

  ALTER TABLE zones ADD COLUMN zone_json text;
  UPDATE zones z SET zone_json = zone_json_of(z);
  ALTER TABLE zones ALTER COLUMN zone_json SET NOT NULL;

  CREATE FUNCTION zones_json_written() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    NEW.zone_json := zone_json_of(NEW);
    RETURN NEW;
  END $$;

  CREATE TRIGGER zones_json_written BEFORE INSERT OR UPDATE OF zone_id, domain, account_name, account_ref, status, name_servers
    ON zones FOR EACH ROW EXECUTE FUNCTION zones_json_written();
`;
