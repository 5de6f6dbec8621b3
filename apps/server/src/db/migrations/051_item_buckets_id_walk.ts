import { ITEMS_PER_BUCKET } from './038_item_order_buckets';

/**
 * The order buckets' cut (migration 038) walked the `id` order as `ORDER BY id, id` over the list's
 * partition: its only index on id is the primary key (ban_list_ref, id), which the planner cannot
 * read in id order without a condition on ban_list_ref, so every hop of 1,000 items read the key
 * from its start (quadratic: 27 s of a 500,000-item sync's swap on PGlite, the database answering
 * nothing else meanwhile). The `id` order now walks (ban_list_ref, id), the key's own order (one
 * list per partition, so the same order). `ban_list_item_bucket_hops` answers each order's walk as
 * SQL, so a test can EXPLAIN exactly what the cut runs. The other orders walk as before.
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

const LEAST: Record<(typeof WALKS)[number]['name'], string> = {
  id: '0',
  value: "''",
  address: "'0.0.0.0/0'::inet",
  comment: "''",
  created_on: "'-infinity'::timestamptz",
};

const byOrder = (pick: (walk: (typeof WALKS)[number]) => string) =>
  `CASE ord ${WALKS.map((walk) => `WHEN '${walk.name}' THEN ${pick(walk)}`).join(' ')} END`;

export const sql = `
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
`;
