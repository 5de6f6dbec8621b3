import { ITEMS_PER_BUCKET } from './038_item_order_buckets';

/**
 * A statement that adds many rows to a list (an import's 89,000 items into a 400,000-item list)
 * rebuilds that list's order buckets instead of placing each row in its bucket and splitting the
 * buckets that grew (038, 051). Placing costs per row and order (about 15 µs a row on PGlite, and
 * the imported rows fall together, so one bucket per order grows by all of them and is split by
 * reading it whole); a rebuild hops along each order's index once per 1,000 items (about 1.2 µs an
 * item of the list). Measured on PGlite in one process, 89,000 rows into 400,000: the insert with
 * its placing 2.8-4.0 s, with a rebuild 2.5-2.7 s. So a list gets rebuilt when a statement adds at
 * least a bucket's worth of rows and at least a twelfth of what the list then holds.
 *
 * How: this statement trigger fires before 038's `ban_list_items_counted_in` (triggers of one event
 * fire in the order of their names) and drops such a list's buckets; 038's trigger then finds the
 * list without buckets and builds them from all its items, these included, as for a new list.
 * The list's count before the statement is the sum of its id order's buckets (which count every item).
 */
export const sql = `
  CREATE FUNCTION ban_list_item_buckets_bulk_rebuilt() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    DELETE FROM ban_list_item_buckets b
    USING (
      SELECT added.ban_list_ref
      FROM (SELECT n.ban_list_ref, count(*) AS rows FROM new_items n GROUP BY 1) AS added,
           LATERAL (SELECT sum(items) AS items FROM ban_list_item_buckets h
                    WHERE h.ban_list_ref = added.ban_list_ref AND h.item_order = 'id') AS had
      WHERE added.rows >= ${ITEMS_PER_BUCKET} AND added.rows * 12 >= had.items + added.rows
    ) AS bulk
    WHERE b.ban_list_ref = bulk.ban_list_ref;
    RETURN NULL;
  END $$;

  CREATE TRIGGER ban_list_items_bulk_rebuilt AFTER INSERT ON ban_list_items
    REFERENCING NEW TABLE AS new_items FOR EACH STATEMENT EXECUTE FUNCTION ban_list_item_buckets_bulk_rebuilt();
`;
