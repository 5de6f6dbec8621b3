/**
 * "Where is this address?" reads the items of every list of a person: each list is a partition of
 * ban_list_items, and planning a statement over 180 partitions (each with its eight indexes) cost
 * PGlite ~140 ms, against ~5 ms of running it (bench, 1,000,000 items in 200 lists). PL/pgSQL keeps a
 * function's plans for its session; with a generic plan the lists are pruned when it runs instead of
 * planned anew, so each search pays the run only (measured 70 ms -> 7 ms on 181 lists).
 * The statements are those of modules/ip-search/ip-search.repository.ts, which calls these.
 */
/** One search statement as a function: the person's lists, what they are searched for, the bound (also migration 025's). */
export const searchFunction = (
  name: string,
  argument: string,
  relation: string,
  where: string,
  order: string,
) => `
  CREATE FUNCTION ${name}(refs bigint[], ${argument}, wanted int)
  RETURNS TABLE (ban_list_ref bigint, id bigint, ip text, comment text, created_on timestamptz,
                 added_via text, added_by text, expires_at timestamptz, relation text)
  LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
  BEGIN
    RETURN QUERY
      SELECT i.ban_list_ref, i.id, i.ip::text, i.comment, i.created_on, i.added_via, i.added_by::text,
             i.expires_at, ${relation}
      FROM ban_list_items AS i
      WHERE i.ban_list_ref = ANY(refs) AND ${where}
      ORDER BY ${order}
      LIMIT wanted;
  END $$;
`;

export const sql = [
  searchFunction(
    'ip_search_holding',
    'address inet',
    "CASE WHEN i.ip_sort = address THEN 'exact' ELSE 'contains' END",
    'i.ip_sort >>= address',
    'masklen(i.ip_sort) DESC, i.ban_list_ref, i.id',
  ),
  searchFunction(
    'ip_search_within',
    'cidr inet',
    "'within'::text",
    'i.ip_sort << cidr',
    'i.ip_sort, i.ban_list_ref, i.id',
  ),
  searchFunction('ip_search_exact', 'value text', "'exact'::text", 'i.ip = value', 'i.ban_list_ref, i.id'),
].join('');
