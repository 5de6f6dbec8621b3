/**
 * "Where is this address?" reads the items of every list of a person: each list is a partition of
 * ban_list_items, and planning a statement over 180 partitions (each with its eight indexes) cost
 * PGlite ~140 ms, against ~5 ms of running it (bench, 1,000,000 items in 200 lists). PL/pgSQL keeps a
 * function's plans for its session; with a generic plan the lists are pruned when it runs instead of
 * planned anew, so each search pays the run only (measured 70 ms -> 7 ms on 181 lists).
 * The statements are those of modules/ip-search/ip-search.repository.ts, which calls these.
 */
export const sql = `
  CREATE FUNCTION ip_search_holding(refs bigint[], address inet, wanted int)
  RETURNS TABLE (ban_list_ref bigint, id bigint, ip text, comment text, created_on timestamptz,
                 added_via text, added_by text, expires_at timestamptz, relation text)
  LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
  BEGIN
    RETURN QUERY
      SELECT i.ban_list_ref, i.id, i.ip::text, i.comment, i.created_on, i.added_via, i.added_by::text,
             i.expires_at, CASE WHEN i.ip_sort = address THEN 'exact' ELSE 'contains' END
      FROM ban_list_items AS i
      WHERE i.ban_list_ref = ANY(refs) AND i.ip_sort >>= address
      ORDER BY masklen(i.ip_sort) DESC, i.ban_list_ref, i.id
      LIMIT wanted;
  END $$;

  CREATE FUNCTION ip_search_within(refs bigint[], cidr inet, wanted int)
  RETURNS TABLE (ban_list_ref bigint, id bigint, ip text, comment text, created_on timestamptz,
                 added_via text, added_by text, expires_at timestamptz, relation text)
  LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
  BEGIN
    RETURN QUERY
      SELECT i.ban_list_ref, i.id, i.ip::text, i.comment, i.created_on, i.added_via, i.added_by::text,
             i.expires_at, 'within'::text
      FROM ban_list_items AS i
      WHERE i.ban_list_ref = ANY(refs) AND i.ip_sort << cidr
      ORDER BY i.ip_sort, i.ban_list_ref, i.id
      LIMIT wanted;
  END $$;

  CREATE FUNCTION ip_search_exact(refs bigint[], value text, wanted int)
  RETURNS TABLE (ban_list_ref bigint, id bigint, ip text, comment text, created_on timestamptz,
                 added_via text, added_by text, expires_at timestamptz, relation text)
  LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
  BEGIN
    RETURN QUERY
      SELECT i.ban_list_ref, i.id, i.ip::text, i.comment, i.created_on, i.added_via, i.added_by::text,
             i.expires_at, 'exact'::text
      FROM ban_list_items AS i
      WHERE i.ban_list_ref = ANY(refs) AND i.ip = value
      ORDER BY i.ban_list_ref, i.id
      LIMIT wanted;
  END $$;
`;
