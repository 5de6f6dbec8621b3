import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestThrottle } from './throttle';
import type { Queryable } from '../db';

/**
 * How long requests taken from the database ahead of use stay usable here: they are counted in the
 * second they were taken, so sent within it they are counted (almost) when they are sent.
 */
const RESERVATION_MS = 1_000;
/** The most requests taken at once: what a burst may leave unused (counted, not sent) when it stops. */
const MAX_BATCH = 16;
/**
 * How much larger each next batch of a busy token is: 1, 4, 16. A person's click makes a few calls in
 * a row (an item add: 4), which then take two asks instead of three (1, 2, 4) and leave one unsent.
 */
const BATCH_GROWTH = 4;

/**
 * Cloudflare's per-token request budget counted in the database (`cloudflare_budget_take`, migrations
 * 016 and 022), so every server process on it shares one count: N processes together stay under the
 * budget. The same interface as the in-memory `SlidingWindowThrottle`; `tokenKey` is the token's hash.
 *
 * A token in steady use (a sync reading page after page) takes its requests in batches: a batch used
 * up within a second makes the next one 4 times larger (up to MAX_BATCH), a batch left unused for a
 * second goes back to one at a time. So a long sync asks the database about once per 16 calls instead of before
 * every call (on PGlite's one connection each ask waited behind the sync's own writes, which held up
 * the next page), and a person's single click still takes exactly one.
 */
export class DatabaseRequestBudget implements RequestThrottle {
  /** Requests taken from the database and not yet used, usable until `reservedUntil`. */
  private reserved = 0;
  private reservedUntil = 0;
  private batch = 1;

  constructor(
    private readonly db: Queryable,
    private readonly tokenKey: string,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  async acquire(maxWaitMs = Infinity): Promise<number> {
    for (;;) {
      const now = Date.now();
      if (this.reserved > 0 && now < this.reservedUntil) {
        this.reserved -= 1;
        return 0;
      }
      // Used up in time: the token is busy, take more next time; left over: one at a time again.
      this.batch =
        this.reserved === 0 && now < this.reservedUntil ? Math.min(this.batch * BATCH_GROWTH, MAX_BATCH) : 1;
      this.reserved = 0;
      const [row] = await this.db.query<{ granted: number; wait_ms: number }>(
        'SELECT granted, wait_ms FROM cloudflare_budget_take($1, $2, $3, $4)',
        [this.tokenKey, this.limit, Math.ceil(this.windowMs / 1000), this.batch],
      );
      const granted = row?.granted ?? 0;
      if (granted > 0) {
        // Concurrent callers may have been granted batches too: what is left of all of them is usable.
        this.reserved += granted - 1;
        this.reservedUntil = Date.now() + RESERVATION_MS;
        return 0;
      }
      const wait = Math.ceil(row?.wait_ms ?? 0);
      if (wait > maxWaitMs) return Math.max(wait, 1);
      await sleep(Math.max(wait, 1));
    }
  }

  blockFor(ms: number): void {
    this.reserved = 0;
    this.batch = 1;
    // Every process holds off until then; a failed write only means this process alone was told.
    this.db
      .query(
        `UPDATE cloudflare_budget SET blocked_until = greatest(blocked_until, clock_timestamp() + make_interval(secs => $2))
         WHERE token_key = $1`,
        [this.tokenKey, ms / 1000],
      )
      .catch(() => undefined);
  }

  async heldByCloudflare(): Promise<boolean> {
    const [row] = await this.db.query<{ held: boolean }>(
      'SELECT blocked_until > clock_timestamp() AS held FROM cloudflare_budget WHERE token_key = $1',
      [this.tokenKey],
    );
    return row?.held ?? false;
  }
}
