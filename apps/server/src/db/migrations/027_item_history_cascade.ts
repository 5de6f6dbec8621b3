/**
 * The items' history loses its foreign key to the lists: PostgreSQL checks a foreign key row by row,
 * a lookup of the list for each event, and an import of 89,000 items records 89,000 'added' events
 * (~1.7 s of its mirror's write on PGlite, more than any of the items' indexes). Every event is
 * written in the transaction that writes its list's items, the list locked, so an event of no list is
 * not written; what the key still did, dropping a deleted list's history with it (also when its
 * account goes), a trigger does once per statement, as the items' partitions are dropped with their
 * list by the code that deletes it.
 */
export const sql = `
  ALTER TABLE ban_list_item_history DROP CONSTRAINT ban_list_item_history_ban_list_ref_fkey;
  CREATE FUNCTION ban_list_item_history_of_deleted_lists() RETURNS trigger LANGUAGE plpgsql AS $fn$
  BEGIN
    DELETE FROM ban_list_item_history WHERE ban_list_ref IN (SELECT id FROM deleted_lists);
    RETURN NULL;
  END
  $fn$;
  CREATE TRIGGER ban_lists_drop_item_history AFTER DELETE ON ban_lists
    REFERENCING OLD TABLE AS deleted_lists
    FOR EACH STATEMENT EXECUTE FUNCTION ban_list_item_history_of_deleted_lists();
`;
