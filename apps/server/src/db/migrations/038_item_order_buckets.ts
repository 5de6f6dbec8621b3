/**
 * Any page of the IP Address, Comment and Created On orders of a 500,000-item list, read by index
 * (issue 36). An OFFSET walks over every row it skips (the middle page of the address order: 250,000
 * index entries, seconds on PGlite); instead each list's items are cut, per order, into buckets of
 * about ITEMS_PER_BUCKET consecutive items, each kept as its first item's key and id and its item
 * count. A page at offset N adds up the counts (a few hundred rows), finds the bucket holding item N
 * and walks the order's index from that bucket's first key: under 2 * ITEMS_PER_BUCKET entries,
 * whatever N.
 *
 * The buckets are cut when a list is synced (`ban_list_item_buckets_build`, from the indexes the sync
 * just built) and kept counted by statement triggers on ban_list_items: whatever writes the items (an
 * add, a delete, an import, the expiry sweep, a restore, a sync's comment changes) counts its rows in
 * the buckets they fall in, in the same statement's transaction, once per statement (transition
 * tables: an import's 89,000 rows are one set-based update, not 89,000 calls). A bucket grown past
 * twice its size is cut again on the spot. A list without buckets (emptied by Clean All) gets them
 * with its next insert.
 *
 * The orders: `id` (read by its primary key's range while no id is missing, by buckets after a
 * delete), `address` (ip lists, by ip_sort; not kept for a list holding a value inet cannot read,
 * whose NULL key sorts last: its pages are read by offset), `value` (the other kinds, by ip),
 * `comment`, `created_on` (as the console shows it: a restored item's first date). The first bucket
 * starts at a key below every item's ('', 0.0.0.0/0, -infinity, id 0), so every item has one.
 */
export const ITEMS_PER_BUCKET = 1000;

/** Each order: its key over ban_list_items, its bucket column, and the key below every item's. */
const ORDERS = [
  { name: 'id', key: 'id', column: 'from_number', least: '0' },
  { name: 'value', key: 'ip', column: 'from_value', least: "''" },
  { name: 'address', key: 'ip_sort', column: 'from_address', least: "'0.0.0.0/0'::inet" },
  { name: 'comment', key: 'comment', column: 'from_comment', least: "''" },
  {
    name: 'created_on',
    key: 'coalesce(first_created_on, created_on)',
    column: 'from_created',
    least: "'-infinity'::timestamptz",
  },
] as const;

/** The bucket each changed row falls in, per order, as `(item_order, bucket)` beside the row. */
const bucketOfChange = ORDERS.map(
  (order) => `SELECT '${order.name}' AS item_order, (
      SELECT b.bucket FROM ban_list_item_buckets b
      WHERE b.ban_list_ref = r.ban_list_ref AND b.item_order = '${order.name}'
        AND (b.${order.column}, b.from_id) <= (r.${order.name}_key, r.id)
      ORDER BY b.${order.column} DESC, b.from_id DESC LIMIT 1) AS bucket`,
).join(' UNION ALL ');

const changeColumns = (row: string) =>
  `${row}.ban_list_ref, ${row}.id, ${row}.id AS id_key, ${row}.ip AS value_key, ${row}.ip_sort AS address_key,
   ${row}.comment AS comment_key, coalesce(${row}.first_created_on, ${row}.created_on) AS created_on_key`;

/** A plpgsql CASE on the order named by `ord`. */
const byOrder = (pick: (order: (typeof ORDERS)[number]) => string) =>
  `CASE ord ${ORDERS.map((order) => `WHEN '${order.name}' THEN ${pick(order)}`).join(' ')} END`;

export const sql = `
  CREATE TABLE ban_list_item_buckets (
    -- A bucket's own id: its start's item id alone does not name it. A bucket keeps the key its first
    -- item had when it was cut, and that item may have moved since (a comment edited, a restored item
    -- given back its first date): a bucket cut later can start at the same item at its new place.
    bucket bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    ban_list_ref bigint NOT NULL REFERENCES ban_lists (id) ON DELETE CASCADE,
    item_order text NOT NULL CHECK (item_order IN (${ORDERS.map((order) => `'${order.name}'`).join(', ')})),
    -- The bucket's first key and id (the key in the order's own column, so it compares as the items'
    -- does): the bucket holds the items from there up to the next bucket's.
    from_id bigint NOT NULL,
    from_number bigint,
    from_value text COLLATE "C",
    from_address inet,
    from_comment text,
    from_created timestamptz,
    items integer NOT NULL
  );
  ${ORDERS.map(
    (order) =>
      `CREATE INDEX ban_list_item_buckets_${order.name}_idx ON ban_list_item_buckets (ban_list_ref, ${order.column}, from_id) WHERE item_order = '${order.name}';`,
  ).join('\n  ')}

  -- The Created On order's index (the key the page sorts by); a sync builds it on its load table too.
  CREATE INDEX ban_list_items_created_idx ON ban_list_items ((coalesce(first_created_on, created_on)), id);

  -- Cuts the list's buckets anew from its items (the sync, a list's first insert, this migration).
  CREATE FUNCTION ban_list_item_buckets_build(ref bigint, total integer) RETURNS void LANGUAGE plpgsql AS $$
  DECLARE
    orders text[];
    ord text;
    -- BanListItemsRepository's partitionOf; a list without one yet has no items.
    partition text := 'ban_list_items_' || ref;
  BEGIN
    DELETE FROM ban_list_item_buckets WHERE ban_list_ref = ref;
    IF to_regclass(partition) IS NULL THEN
      total := 0;
    END IF;
    IF (SELECT kind FROM ban_lists WHERE id = ref) IS DISTINCT FROM 'ip' THEN
      orders := ARRAY['id', 'value', 'comment', 'created_on'];
    ELSIF EXISTS (SELECT 1 FROM ban_list_items WHERE ban_list_ref = ref AND ip_sort IS NULL) THEN
      orders := ARRAY['id', 'comment', 'created_on'];
    ELSE
      orders := ARRAY['id', 'address', 'comment', 'created_on'];
    END IF;
    FOREACH ord IN ARRAY orders LOOP
      -- The first bucket starts at the least key; then every ITEMS_PER_BUCKET-th item starts one,
      -- found by hops along the order's index (each skips ITEMS_PER_BUCKET entries: no sort, no
      -- window over every row), the last one holding the rest. Read from the list's partition itself:
      -- without the list's id to filter on, the btrees answer from their entries alone (index-only).
      EXECUTE format('INSERT INTO ban_list_item_buckets (ban_list_ref, item_order, from_id, %1$I, items)
                      VALUES ($1, $3, 0, %2$s, least(${ITEMS_PER_BUCKET}, $2))',
        ${byOrder((order) => `'${order.column}'`)},
        ${byOrder((order) => `$q$${order.least}$q$`)}
      ) USING ref, total, ord;
      CONTINUE WHEN total <= ${ITEMS_PER_BUCKET};
      EXECUTE format($build$
        INSERT INTO ban_list_item_buckets (ban_list_ref, item_order, from_id, %1$I, items)
        WITH RECURSIVE hop (key, id, n) AS (
          (SELECT %2$s, id, 1 FROM %3$I ORDER BY %2$s, id OFFSET ${ITEMS_PER_BUCKET} LIMIT 1)
          UNION ALL
          SELECT next.key, next.id, hop.n + 1 FROM hop CROSS JOIN LATERAL (
            SELECT %2$s AS key, id FROM %3$I WHERE (%2$s, id) > (hop.key, hop.id)
            ORDER BY %2$s, id OFFSET ${ITEMS_PER_BUCKET - 1} LIMIT 1
          ) AS next
        )
        SELECT $1, $3, id, key, least(${ITEMS_PER_BUCKET}, $2 - n * ${ITEMS_PER_BUCKET}) FROM hop
      $build$,
        ${byOrder((order) => `'${order.column}'`)},
        ${byOrder((order) => `$q$${order.key}$q$`)},
        partition
      ) USING ref, total, ord;
    END LOOP;
  END $$;

  -- Cuts a bucket grown past twice its size into buckets of ITEMS_PER_BUCKET (the first keeps its start).
  CREATE FUNCTION ban_list_item_buckets_split(ref bigint, ord text, grown_bucket bigint) RETURNS void
  LANGUAGE plpgsql AS $$
  BEGIN
    EXECUTE format($split$
      INSERT INTO ban_list_item_buckets (ban_list_ref, item_order, from_id, %1$I, items)
      SELECT $1, $2, id, key, least(${ITEMS_PER_BUCKET}, grown.items - rn)
      FROM ban_list_item_buckets AS grown, LATERAL (
        SELECT key, id, row_number() OVER (ORDER BY key, id) - 1 AS rn
        FROM (
          SELECT %2$s AS key, id FROM ban_list_items
          WHERE ban_list_ref = $1 AND (%2$s, id) >= (grown.%1$I, grown.from_id)
          ORDER BY %2$s, id LIMIT grown.items
        ) AS bucket
      ) AS ranked
      WHERE grown.bucket = $3 AND rn > 0 AND rn %% ${ITEMS_PER_BUCKET} = 0
    $split$,
      ${byOrder((order) => `'${order.column}'`)},
      ${byOrder((order) => `$q$${order.key}$q$`)}
    ) USING ref, ord, grown_bucket;
    UPDATE ban_list_item_buckets SET items = ${ITEMS_PER_BUCKET} WHERE bucket = grown_bucket;
  END $$;

  -- Counts a statement's rows in their buckets: ±1 per row (an update counts its row out of its old
  -- bucket and into its new one when its keys changed).
  CREATE FUNCTION ban_list_item_buckets_count() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    changes text;
    ref bigint;
    built bigint[] := '{}';
    grown record;
  BEGIN
    IF TG_OP = 'INSERT' THEN
      -- A list without buckets (new, or emptied) gets them from all its items, these included.
      FOR ref IN SELECT DISTINCT n.ban_list_ref FROM new_items n WHERE NOT EXISTS (
        SELECT 1 FROM ban_list_item_buckets b WHERE b.ban_list_ref = n.ban_list_ref)
      LOOP
        PERFORM ban_list_item_buckets_build(ref, (SELECT count(*)::integer FROM ban_list_items WHERE ban_list_ref = ref));
        built := built || ref;
      END LOOP;
      changes := 'SELECT ${changeColumns('n')}, 1 AS delta FROM new_items n';
    ELSIF TG_OP = 'DELETE' THEN
      changes := 'SELECT ${changeColumns('o')}, -1 AS delta FROM old_items o';
    ELSE
      changes := 'SELECT ${changeColumns('o')}, -1 AS delta FROM old_items o JOIN new_items n USING (ban_list_ref, id)
                  WHERE (o.ip, o.ip_sort, o.comment, coalesce(o.first_created_on, o.created_on))
                    IS DISTINCT FROM (n.ip, n.ip_sort, n.comment, coalesce(n.first_created_on, n.created_on))
                  UNION ALL
                  SELECT ${changeColumns('n')}, 1 AS delta FROM old_items o JOIN new_items n USING (ban_list_ref, id)
                  WHERE (o.ip, o.ip_sort, o.comment, coalesce(o.first_created_on, o.created_on))
                    IS DISTINCT FROM (n.ip, n.ip_sort, n.comment, coalesce(n.first_created_on, n.created_on))';
    END IF;
    IF TG_OP <> 'DELETE' THEN
      -- A value inet cannot read sorts last, outside the buckets: that list's address pages go by offset.
      DELETE FROM ban_list_item_buckets WHERE item_order = 'address'
        AND ban_list_ref IN (SELECT n.ban_list_ref FROM new_items n WHERE n.ip_sort IS NULL);
    END IF;
    FOR grown IN EXECUTE format($count$
      WITH counted AS (
        UPDATE ban_list_item_buckets AS b SET items = b.items + c.delta
        FROM (
          SELECT found.bucket, sum(r.delta)::integer AS delta
          FROM (%s) AS r CROSS JOIN LATERAL (${bucketOfChange}) AS found
          WHERE found.bucket IS NOT NULL AND r.ban_list_ref <> ALL ($1)
          GROUP BY 1
        ) AS c
        WHERE b.bucket = c.bucket
        RETURNING b.ban_list_ref, b.item_order, b.bucket, b.items
      )
      SELECT ban_list_ref, item_order, bucket FROM counted WHERE items > ${2 * ITEMS_PER_BUCKET}
    $count$, changes) USING built
    LOOP
      PERFORM ban_list_item_buckets_split(grown.ban_list_ref, grown.item_order, grown.bucket);
    END LOOP;
    RETURN NULL;
  END $$;

  CREATE TRIGGER ban_list_items_counted_in AFTER INSERT ON ban_list_items
    REFERENCING NEW TABLE AS new_items FOR EACH STATEMENT EXECUTE FUNCTION ban_list_item_buckets_count();
  CREATE TRIGGER ban_list_items_counted_out AFTER DELETE ON ban_list_items
    REFERENCING OLD TABLE AS old_items FOR EACH STATEMENT EXECUTE FUNCTION ban_list_item_buckets_count();
  CREATE TRIGGER ban_list_items_counted_again AFTER UPDATE ON ban_list_items
    REFERENCING OLD TABLE AS old_items NEW TABLE AS new_items
    FOR EACH STATEMENT EXECUTE FUNCTION ban_list_item_buckets_count();

  SELECT ban_list_item_buckets_build(id, items_count) FROM ban_lists;

  -- The deleted ids recorded for the id order's arithmetic: the id order's buckets count them now.
  DROP TABLE ban_list_item_holes;
`;
