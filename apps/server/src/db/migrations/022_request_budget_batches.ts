export const sql = `
  -- Takes up to \`wanted\` requests of the token's budget at once (modules/jobs/request-budget.ts):
  -- a busy token (a 500,000-item sync reads 1,000 pages) asks the database once per batch instead of
  -- once per call. Answers how many were granted (and counted), or none and the milliseconds to wait
  -- (counting nothing). Replaces cloudflare_budget_take (016), which took one.
  DROP FUNCTION cloudflare_budget_take(text, integer, integer);
  CREATE FUNCTION cloudflare_budget_take(
    key text, budget integer, window_seconds integer, wanted integer,
    OUT granted integer, OUT wait_ms double precision
  ) LANGUAGE plpgsql AS $fn$
  DECLARE
    blocked timestamptz;
    now_ms double precision := extract(epoch FROM clock_timestamp()) * 1000;
    now_second bigint := floor(now_ms / 1000);
    used integer;
    oldest bigint;
  BEGIN
    granted := 0;
    wait_ms := 0;
    INSERT INTO cloudflare_budget AS b (token_key) VALUES (key)
      ON CONFLICT (token_key) DO UPDATE SET token_key = b.token_key
      RETURNING b.blocked_until INTO blocked;
    IF blocked > clock_timestamp() THEN
      wait_ms := extract(epoch FROM blocked) * 1000 - now_ms;
      RETURN;
    END IF;
    DELETE FROM cloudflare_budget_seconds
      WHERE token_key = key AND second <= now_second - window_seconds;
    SELECT coalesce(sum(requests), 0), min(second) INTO used, oldest
      FROM cloudflare_budget_seconds WHERE token_key = key;
    IF used >= budget THEN
      wait_ms := greatest(1, (oldest + window_seconds) * 1000 - now_ms);
      RETURN;
    END IF;
    granted := least(greatest(wanted, 1), budget - used);
    INSERT INTO cloudflare_budget_seconds AS s (token_key, second, requests)
      VALUES (key, now_second, granted)
      ON CONFLICT (token_key, second) DO UPDATE SET requests = s.requests + granted;
  END
  $fn$;
`;
