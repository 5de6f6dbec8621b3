import { searchFunction } from './023_ip_search_plans';

/**
 * The containment GiST index (migration 017) held every item of every ip list, and a sync builds it
 * anew on its load table: 3.7 s of a 500,000-item sync on PGlite, 2.1-2.5 s on PostgreSQL (bench), for
 * a question only the CIDR items need it for. An address item holds nothing but itself, which the
 * btree (ip_sort, id) finds by equality, and the items inside a CIDR are a range of that
 * btree (inet's order: the network, then the prefix length). So the GiST index keeps the CIDR items
 * only (few in a ban list; none in most), and the two containment searches are written for that:
 * - holding: the CIDR items strictly holding the value (partial GiST), or the items equal to it (btree);
 * - within: the range from the CIDR's network to its last address, as PostgreSQL's planner support
 *   for `<<` writes it for a constant (a kept generic plan has a parameter instead), then `<<` exactly.
 * `ban_list_items_cidr_idx`'s predicate must stay written as the sync's load table writes it
 * (BanListItemsRepository.indexLoad), so that attaching a loaded list finds its index built.
 */
const CIDR_ITEM = 'masklen(i.ip_sort) < CASE WHEN family(i.ip_sort) = 4 THEN 32 ELSE 128 END';

export const sql = `
  -- The address order without the list's id in front (each list is a partition of its own): an
  -- array of list ids as the condition of its first column made PostgreSQL 15 descend the btree once
  -- per id of the array in every list (181 x 181 descents for a search over 181 lists, 3x slower than
  -- the GiST); the items page sorted by address reads it as it did, its list's partition alone.
  DROP INDEX ban_list_items_ip_sort_idx;
  CREATE INDEX ban_list_items_ip_sort_idx ON ban_list_items (ip_sort, id);
  DROP INDEX ban_list_items_ip_sort_gist_idx;
  CREATE INDEX ban_list_items_cidr_idx ON ban_list_items USING gist (ip_sort inet_ops)
    WHERE masklen(ip_sort) < CASE WHEN family(ip_sort) = 4 THEN 32 ELSE 128 END;
  DROP FUNCTION ip_search_holding(bigint[], inet, int);
  DROP FUNCTION ip_search_within(bigint[], inet, int);
  ${searchFunction(
    'ip_search_holding',
    'address inet',
    "CASE WHEN i.ip_sort = address THEN 'exact' ELSE 'contains' END",
    `((${CIDR_ITEM} AND i.ip_sort >> address) OR i.ip_sort = address)`,
    'masklen(i.ip_sort) DESC, i.ban_list_ref, i.id',
  )}
  ${searchFunction(
    'ip_search_within',
    'cidr inet',
    "'within'::text",
    'i.ip_sort >= network(cidr)::inet AND i.ip_sort <= set_masklen(broadcast(cidr), -1) AND i.ip_sort << cidr',
    'i.ip_sort, i.ban_list_ref, i.id',
  )}
`;
