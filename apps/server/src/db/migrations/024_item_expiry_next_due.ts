/**
 * The expiry sweep (modules/banlists/item-expiry.ts) runs in every process every
 * GUARDIAN_EXPIRY_SWEEP_SECONDS (every second in the bench). It first asks when the next item is due:
 * the smallest expires_at, read from each list's index of items with an expiry (migration 019's
 * partial index), so a list of 500,000 items without expiries costs one empty index probe. Only when
 * that time has come does it look for the accounts with due items. As a PL/pgSQL function the
 * statement is planned once per database session: planning a statement over every list's partition
 * (eight indexes each) is most of its cost on PGlite, paid every sweep by a plain statement.
 */
export const sql = `
  CREATE FUNCTION item_expiry_next_due() RETURNS timestamptz
  LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
  BEGIN
    RETURN (SELECT min(expires_at) FROM ban_list_items WHERE expires_at IS NOT NULL);
  END $$;
`;
