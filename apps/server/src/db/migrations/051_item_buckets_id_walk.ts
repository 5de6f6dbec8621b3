import { ITEMS_PER_BUCKET } from './038_item_order_buckets';

/**
 * The order buckets' cut (migration 038) walked the `id` order as `ORDER BY id, id` over the list's
 * partition: its only index on id is the primary key (ban_list_ref, id), which the planner cannot
 * read in id order without a condition on ban_list_ref, so every hop of 1,000 items read the key
 * from its start (quadratic: 27 s of a 500,000-item sync's swap on PGlite, the database answering
 * nothing else meanwhile). The `id` order now walks (ban_list_ref, id), the key's own order (one
 * list per partition, so the same order). `ban_list_item_bucket_hops` answers each order's walk as
 * SQL, so a test can EXPLAIN exactly what the cut runs. The other orders walk as before.
 *
 * The statement trigger that counts written rows in their buckets found each row's bucket by one
 * probe of the buckets' index per row and order (an import's 89,000 rows: 445,000 probes, more than
 * half of its insert on PGlite). It now places a statement's rows set-wise: per order, the rows and
 * the list's bucket starts sorted together, each row in the group of the last start before it.
 *
 * `ban_list_unconfirmed_items`: the id ranges of an import's items recorded in the mirror while
 * Cloudflare's bulk operation runs (modules/ban-list-import/mirror-recording.ts), until the operation
 * completes. A range left behind by a server process that died meanwhile is withdrawn by the next
 * import of the list, or dropped with the mirror's items by its next sync.
 */
const WALKS = [
  {
    name: 'id',
    column: 'from_number',
    key: 'id',
    sort: 'ban_list_ref, id',
    after: '(ban_list_ref, id) > ($1, hop.id)',
  },
  { name: 'value', column: 'from_value', key: 'ip', sort: 'ip, id', after: '(ip, id) > (hop.key, hop.id)' },
  {
    name: 'address',
    column: 'from_address',
    key: 'ip_sort',
    sort: 'ip_sort, id',
    after: '(ip_sort, id) > (hop.key, hop.id)',
  },
  {
    name: 'comment',
    column: 'from_comment',
    key: 'comment',
    sort: 'comment, id',
    after: '(comment, id) > (hop.key, hop.id)',
  },
  {
    name: 'created_on',
    column: 'from_created',
    key: 'coalesce(first_created_on, created_on)',
    sort: 'coalesce(first_created_on, created_on), id',
    after: '(coalesce(first_created_on, created_on), id) > (hop.key, hop.id)',
  },
] as const;

export const LEAST: Record<(typeof WALKS)[number]['name'], string> = {
  id: '0',
  value: "''",
  address: "'0.0.0.0/0'::inet",
  comment: "''",
  created_on: "'-infinity'::timestamptz",
};

/** Each order's key among a change's columns (038's changeColumns) and its bucket column. */
const KEYS = [
  { name: 'id', column: 'from_number', key: 'id_key' },
  { name: 'value', column: 'from_value', key: 'value_key' },
  { name: 'address', column: 'from_address', key: 'address_key' },
  { name: 'comment', column: 'from_comment', key: 'comment_key' },
  { name: 'created_on', column: 'from_created', key: 'created_on_key' },
] as const;

/**
 * The bucket of each changed row (CTE `r`) and its delta, all orders: per order the list's bucket
 * starts and the rows sorted by (key, id), a start before a row of the same key and id (the bucket
 * starts at that item); a row belongs to the last start before it (`grp` counts the starts so far).
 * A row whose key is NULL has no bucket in that order (as 038's probe found none).
 */
const placedChanges = KEYS.map(
  (order) => `SELECT bucket, delta FROM (
      SELECT max(bucket) OVER (PARTITION BY ban_list_ref, grp) AS bucket, delta FROM (
        SELECT ban_list_ref, bucket, delta,
               count(bucket) OVER (PARTITION BY ban_list_ref ORDER BY key, id, bucket IS NULL) AS grp
        FROM (
          SELECT b.ban_list_ref, b.${order.column} AS key, b.from_id AS id, b.bucket, NULL::integer AS delta
          FROM ban_list_item_buckets b
          WHERE b.item_order = '${order.name}' AND b.ban_list_ref IN (SELECT ban_list_ref FROM r)
          UNION ALL
          SELECT r.ban_list_ref, r.${order.key}, r.id, NULL, r.delta FROM r WHERE r.${order.key} IS NOT NULL
        ) AS sides
      ) AS grouped
    ) AS placed WHERE delta IS NOT NULL AND bucket IS NOT NULL`,
).join(' UNION ALL ');

/** 038's columns of a changed row: the keys of every order. */
const changeColumns = (row: string) =>
  `${row}.ban_list_ref, ${row}.id, ${row}.id AS id_key, ${row}.ip AS value_key, ${row}.ip_sort AS address_key,
   ${row}.comment AS comment_key, coalesce(${row}.first_created_on, ${row}.created_on) AS created_on_key`;

export const byOrder = (pick: (walk: (typeof WALKS)[number]) => string) =>
  `CASE ord ${WALKS.map((walk) => `WHEN '${walk.name}' THEN ${pick(walk)}`).join(' ')} END`;

/** `text` on a line of its own after the current one, at `indent`; nothing without it. */
const line = (text: string | undefined, indent: string) => (text ? `\n${indent}${text}` : '');

/**
 * The statement trigger's function counting written rows in their buckets. `deferred` (migration 055)
 * adds the lists it leaves alone: a variable declared, the list-without-buckets build skipping them,
 * and their rows left out of the counting.
 */
export const countFunction = (deferred?: { declare: string; notBuilt: string; notCounted: string }) =>
  `  -- Counts a statement's rows in their buckets: ±1 per row (an update counts its row out of its old
  -- bucket and into its new one when its keys changed), placed set-wise (placedChanges above).
  CREATE OR REPLACE FUNCTION ban_list_item_buckets_count() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    changes text;
    ref bigint;
    built bigint[] := '{}';${line(deferred?.declare, '    ')}
    grown record;
  BEGIN
    IF TG_OP = 'INSERT' THEN
      -- A list without buckets (new, or emptied) gets them from all its items, these included.
      FOR ref IN SELECT DISTINCT n.ban_list_ref FROM new_items n WHERE NOT EXISTS (
        SELECT 1 FROM ban_list_item_buckets b WHERE b.ban_list_ref = n.ban_list_ref)${line(deferred?.notBuilt, '        ')}
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
    END IF;${line(deferred?.notCounted, '    ')}
    FOR grown IN EXECUTE format($count$
      WITH r AS MATERIALIZED (SELECT * FROM (%s) AS c WHERE c.ban_list_ref <> ALL ($1)),
      counted AS (
        UPDATE ban_list_item_buckets AS b SET items = b.items + c.delta
        FROM (SELECT bucket, sum(delta)::integer AS delta FROM (${placedChanges}) AS found GROUP BY 1) AS c
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
`;

export const sql = `
  CREATE TABLE ban_list_unconfirmed_items (
    ban_list_ref bigint NOT NULL REFERENCES ban_lists (id) ON DELETE CASCADE,
    from_id bigint NOT NULL,
    -- Exclusive.
    to_id bigint NOT NULL CHECK (to_id > from_id),
    PRIMARY KEY (ban_list_ref, from_id)
  );

  -- The hops of one order over a list's partition: $1 the list, $2 its item count, $3 the order.
  CREATE FUNCTION ban_list_item_bucket_hops(ord text, partition text) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$
    SELECT format($hops$
      INSERT INTO ban_list_item_buckets (ban_list_ref, item_order, from_id, %1$I, items)
      WITH RECURSIVE hop (key, id, n) AS (
        (SELECT %2$s, id, 1 FROM %5$I ORDER BY %3$s OFFSET ${ITEMS_PER_BUCKET} LIMIT 1)
        UNION ALL
        SELECT next.key, next.id, hop.n + 1 FROM hop CROSS JOIN LATERAL (
          SELECT %2$s AS key, id FROM %5$I WHERE %4$s
          ORDER BY %3$s OFFSET ${ITEMS_PER_BUCKET - 1} LIMIT 1
        ) AS next
      )
      SELECT $1, $3, id, key, least(${ITEMS_PER_BUCKET}, $2 - n * ${ITEMS_PER_BUCKET}) FROM hop
    $hops$,
      ${byOrder((walk) => `'${walk.column}'`)},
      ${byOrder((walk) => `$q$${walk.key}$q$`)},
      ${byOrder((walk) => `$q$${walk.sort}$q$`)},
      ${byOrder((walk) => `$q$${walk.after}$q$`)},
      partition)
  $$;

  CREATE OR REPLACE FUNCTION ban_list_item_buckets_build(ref bigint, total integer) RETURNS void LANGUAGE plpgsql AS $$
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
      -- The first bucket starts at the least key; then every ${ITEMS_PER_BUCKET}-th item starts one,
      -- found by hops along the order's index (ban_list_item_bucket_hops), the last one holding the rest.
      EXECUTE format('INSERT INTO ban_list_item_buckets (ban_list_ref, item_order, from_id, %1$I, items)
                      VALUES ($1, $3, 0, %2$s, least(${ITEMS_PER_BUCKET}, $2))',
        ${byOrder((walk) => `'${walk.column}'`)},
        ${byOrder((walk) => `$q$${LEAST[walk.name]}$q$`)}
      ) USING ref, total, ord;
      CONTINUE WHEN total <= ${ITEMS_PER_BUCKET};
      EXECUTE ban_list_item_bucket_hops(ord, partition) USING ref, total, ord;
    END LOOP;
  END $$;
${countFunction()}`;
