export const sql = `
  -- Cloudflare's Lists write budget (modules/jobs/list-write-budget.ts): at most 1,000,000 item
  -- changes and 30,000 modifying requests per 12 hours per Cloudflare account. Counted here, per
  -- account and minute, so that every server process on this database shares one count and a write
  -- past it is refused before it is sent.
  CREATE TABLE list_write_budget (
    -- Cloudflare's account id (several console accounts may hold tokens of one Cloudflare account).
    account_id text PRIMARY KEY
  );
  CREATE TABLE list_write_budget_minutes (
    account_id text NOT NULL REFERENCES list_write_budget (account_id) ON DELETE CASCADE,
    minute bigint NOT NULL,
    requests integer NOT NULL,
    items bigint NOT NULL,
    PRIMARY KEY (account_id, minute)
  );

  -- Takes one write of \`changes\` item changes from the account's budget: 0 when it may be sent now
  -- (and counts it), else the seconds until enough of the window has passed for it (counting
  -- nothing; -1 when the write alone is larger than the whole budget). The first statement locks the
  -- account's row until the calling statement ends, so takers of one account queue there in every
  -- process.
  CREATE FUNCTION list_write_budget_take(
    key text, changes bigint, max_requests integer, max_items bigint, window_seconds integer
  ) RETURNS double precision LANGUAGE plpgsql AS $fn$
  DECLARE
    now_s double precision := extract(epoch FROM clock_timestamp());
    now_minute bigint := floor(now_s / 60);
    -- A minute leaves the window once its last second has: minutes before this one have.
    first_minute bigint := floor((now_s - window_seconds) / 60);
    used_requests bigint;
    used_items bigint;
    bucket record;
  BEGIN
    IF changes > max_items THEN
      RETURN -1;
    END IF;
    INSERT INTO list_write_budget AS b (account_id) VALUES (key)
      ON CONFLICT (account_id) DO UPDATE SET account_id = b.account_id;
    DELETE FROM list_write_budget_minutes WHERE account_id = key AND minute < first_minute;
    SELECT coalesce(sum(requests), 0), coalesce(sum(items), 0) INTO used_requests, used_items
      FROM list_write_budget_minutes WHERE account_id = key;
    IF used_requests + 1 <= max_requests AND used_items + changes <= max_items THEN
      INSERT INTO list_write_budget_minutes AS m (account_id, minute, requests, items)
        VALUES (key, now_minute, 1, changes)
        ON CONFLICT (account_id, minute) DO UPDATE
          SET requests = m.requests + 1, items = m.items + excluded.items;
      RETURN 0;
    END IF;
    -- The oldest minutes leave the window first: the write fits once enough of them have left.
    FOR bucket IN
      SELECT minute, requests, items FROM list_write_budget_minutes WHERE account_id = key ORDER BY minute
    LOOP
      used_requests := used_requests - bucket.requests;
      used_items := used_items - bucket.items;
      IF used_requests + 1 <= max_requests AND used_items + changes <= max_items THEN
        RETURN greatest(1, (bucket.minute + 1) * 60 + window_seconds - now_s);
      END IF;
    END LOOP;
    RETURN greatest(1, window_seconds);
  END
  $fn$;
`;
