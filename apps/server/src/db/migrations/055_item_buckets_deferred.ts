import { ITEMS_PER_BUCKET } from './038_item_order_buckets';
import { byOrder, countFunction, LEAST } from './051_item_buckets_id_walk';

/**
 * An import of many items into a big list (89,000 into 400,000, in transactions of 5,000) placed each
 * transaction's rows in their order buckets (038, 051) and split the buckets that grew: about a third
 * of its mirror insert. Now the import defers them (modules/ban-list-import/mirror-recording.ts): each
 * of its transactions names the list in `guardian.buckets_deferred` (a transaction-local setting) and
 * drops the list's buckets, so the counting trigger neither places its rows nor cuts the list anew;
 * after its last transaction the buckets are cut once from the list's indexes, one order a
 * transaction (each a walk of that order's index, as after a sync), so no statement holds PGlite's
 * one connection for all of them. A list left without buckets (the import's process stopped
 * meanwhile) gets them with its next insert, as an emptied list does (038).
 *
 * `ban_list_item_bucket_orders` names a list's orders (as 051's build chose them) and
 * `ban_list_item_buckets_build_order` cuts one of them; the build cuts each in turn, as before.
 */
export const sql = `
  ${countFunction({
    declare: "deferred bigint := nullif(current_setting('guardian.buckets_deferred', true), '')::bigint;",
    notBuilt: 'AND n.ban_list_ref IS DISTINCT FROM deferred',
    notCounted: 'IF deferred IS NOT NULL THEN built := built || deferred; END IF;',
  })}

  -- The orders a list keeps in buckets: the address order only for an ip list whose every value inet reads.
  CREATE FUNCTION ban_list_item_bucket_orders(ref bigint) RETURNS text[] LANGUAGE plpgsql STABLE AS $$
  BEGIN
    IF (SELECT kind FROM ban_lists WHERE id = ref) IS DISTINCT FROM 'ip' THEN
      RETURN ARRAY['id', 'value', 'comment', 'created_on'];
    ELSIF EXISTS (SELECT 1 FROM ban_list_items WHERE ban_list_ref = ref AND ip_sort IS NULL) THEN
      RETURN ARRAY['id', 'comment', 'created_on'];
    END IF;
    RETURN ARRAY['id', 'address', 'comment', 'created_on'];
  END $$;

  -- Cuts one order's buckets anew: the first at the least key, then every ${ITEMS_PER_BUCKET}-th item
  -- (ban_list_item_bucket_hops), the last one holding the rest.
  CREATE FUNCTION ban_list_item_buckets_build_order(ref bigint, total integer, ord text) RETURNS void
  LANGUAGE plpgsql AS $$
  DECLARE
    -- BanListItemsRepository's partitionOf; a list without one yet has no items.
    partition text := 'ban_list_items_' || ref;
  BEGIN
    DELETE FROM ban_list_item_buckets WHERE ban_list_ref = ref AND item_order = ord;
    IF to_regclass(partition) IS NULL THEN
      total := 0;
    END IF;
    EXECUTE format('INSERT INTO ban_list_item_buckets (ban_list_ref, item_order, from_id, %1$I, items)
                    VALUES ($1, $3, 0, %2$s, least(${ITEMS_PER_BUCKET}, $2))',
      ${byOrder((walk) => `'${walk.column}'`)},
      ${byOrder((walk) => `$q$${LEAST[walk.name]}$q$`)}
    ) USING ref, total, ord;
    IF total > ${ITEMS_PER_BUCKET} THEN
      EXECUTE ban_list_item_bucket_hops(ord, partition) USING ref, total, ord;
    END IF;
  END $$;

  CREATE OR REPLACE FUNCTION ban_list_item_buckets_build(ref bigint, total integer) RETURNS void LANGUAGE plpgsql AS $$
  DECLARE
    ord text;
  BEGIN
    DELETE FROM ban_list_item_buckets WHERE ban_list_ref = ref;
    FOREACH ord IN ARRAY ban_list_item_bucket_orders(ref) LOOP
      PERFORM ban_list_item_buckets_build_order(ref, total, ord);
    END LOOP;
  END $$;
`;
