export const sql = `
  -- "Where is this address?" (modules/ip-search/): the items of ip lists that hold an address or sit
  -- inside a CIDR, across every list of a person, found with inet's containment operators (>>=, <<=)
  -- through a GiST index instead of reading every item. On the partitioned table, so each list's
  -- partition gets its own (a sync builds it on its load table before swapping it in).
  CREATE INDEX ban_list_items_ip_sort_gist_idx ON ban_list_items USING gist (ip_sort inet_ops);
`;
