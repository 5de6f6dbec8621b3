import type { RequestThrottle } from '../../cloudflare/throttle';
import type { Queryable } from '../../db';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Cloudflare's per-token request budget counted in the database (`cloudflare_budget_take`, migration
 * 016), so every server process on it shares one count: N processes together stay under the budget.
 * The same interface as the in-memory `SlidingWindowThrottle`; `tokenKey` is the token's hash.
 */
export class DatabaseRequestBudget implements RequestThrottle {
  constructor(
    private readonly db: Queryable,
    private readonly tokenKey: string,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  async acquire(maxWaitMs = Infinity): Promise<number> {
    for (;;) {
      const [row] = await this.db.query<{ wait: number }>(
        'SELECT cloudflare_budget_take($1, $2, $3) AS wait',
        [this.tokenKey, this.limit, Math.ceil(this.windowMs / 1000)],
      );
      const wait = Math.ceil(row?.wait ?? 0);
      if (wait <= 0) return 0;
      if (wait > maxWaitMs) return wait;
      await sleep(wait);
    }
  }

  blockFor(ms: number): void {
    // Every process holds off until then; a failed write only means this process alone was told.
    this.db
      .query(
        `UPDATE cloudflare_budget SET blocked_until = greatest(blocked_until, clock_timestamp() + make_interval(secs => $2))
         WHERE token_key = $1`,
        [this.tokenKey, ms / 1000],
      )
      .catch(() => undefined);
  }
}
