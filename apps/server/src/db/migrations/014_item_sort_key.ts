/**
 * Fills the address order's key of the items mirrored before this migration. The mirror's values came
 * from Cloudflare, which stores only valid addresses; a value inet cannot read is left NULL (sorted
 * after the others) rather than stopping the server's start. Exported for its test.
 */
export const backfillSql = `
  CREATE OR REPLACE FUNCTION pg_temp.inet_or_null(value text) RETURNS inet LANGUAGE plpgsql AS $$
  BEGIN
    RETURN value::inet;
  EXCEPTION WHEN others THEN
    RETURN NULL;
  END;
  $$;
  UPDATE ban_list_items SET ip_sort = pg_temp.inet_or_null(ip)
  WHERE ban_list_ref IN (SELECT id FROM ban_lists WHERE kind = 'ip');
`;

export const sql = `
  -- The IP Address column sorted as addresses, not as text (10.0.0.2 before 10.0.0.10): inet orders
  -- IPv4 before IPv6, then by network address, then by prefix (10.0.0.0/8, 10.0.0.0/24, 10.0.0.1).
  -- Filled for the items of ip lists as they reach the mirror (NULL for the other kinds, whose values
  -- sort as text); the index keeps the order for a page at any depth of a 500,000-item list.
  ALTER TABLE ban_list_items ADD COLUMN ip_sort inet;
  ${backfillSql}
  CREATE INDEX ban_list_items_ip_sort_idx ON ban_list_items (ban_list_ref, ip_sort, id);
`;
