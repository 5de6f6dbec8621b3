import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { PLANNED_ONCE, type Queryable } from './types';

export interface LeaseTiming {
  /** A holder's lease lasts this long unless renewed: the longest a crashed holder keeps others waiting. */
  ttlMs: number;
  /** The holder renews its lease this often while it works, well within the TTL. */
  renewEveryMs: number;
}

const DEFAULT_TIMING: LeaseTiming = { ttlMs: 30_000, renewEveryMs: 10_000 };
const FIRST_POLL_MS = 20;
const MAX_POLL_MS = 250;

/** Whether `promise` settles before `deadline` (ms since the epoch); the timer is cleared either way. */
async function settlesBefore(promise: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface LeaseWait {
  /** The longest to wait for the lease. */
  waitMs: number;
  /** The error thrown, without running the work, when the wait runs out. */
  busy: () => Error;
}

/**
 * Named leases in the `leases` table (migration 007): work that one holder at a time may run, in any
 * server process on this database. No transaction or session is held while the work runs (it may wait
 * on Cloudflare for minutes), so a waiting write never holds a pooled connection, and PGlite, which runs
 * one transaction at a time, is never held up. The holder renews its lease while it works and deletes it
 * when done; if it crashes, its lease lapses after `ttlMs` (30 s). Within one process, waiters for a name
 * queue in memory (first come, first served) and only the first polls the table. Taken and released
 * around every list write, its statements are planned once (their plans do not depend on the names).
 */
export class Leases {
  private readonly queues = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Queryable,
    private readonly timing: LeaseTiming = DEFAULT_TIMING,
  ) {}

  /** Runs `work` holding the lease `name`; released however the work ends. */
  async run<T>(name: string, { waitMs, busy }: LeaseWait, work: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + waitMs;
    const previous = this.queues.get(name) ?? Promise.resolve();
    let endTurn!: () => void;
    const turn = new Promise<void>((resolve) => (endTurn = resolve));
    // The next waiter's turn comes after this one's, even if this one stops waiting early.
    const tail = previous.then(() => turn);
    this.queues.set(name, tail);
    void tail.then(() => {
      if (this.queues.get(name) === tail) this.queues.delete(name);
    });
    try {
      if (!(await settlesBefore(previous, deadline))) throw busy();
      const holder = await this.acquire(name, deadline);
      if (holder === undefined) throw busy();
      const renewal = this.keepRenewed(name, holder);
      try {
        return await work();
      } finally {
        renewal.stop();
        // The database may be gone: then the lease lapses on its own, and the work's outcome stands.
        await this.db
          .query('DELETE FROM leases WHERE name = $1 AND holder = $2', [name, holder], PLANNED_ONCE)
          .catch(() => undefined);
      }
    } finally {
      endTurn();
    }
  }

  /** Takes the lease when it is free or has lapsed, polling until `deadline`; the holder's id, or undefined. */
  private async acquire(name: string, deadline: number): Promise<string | undefined> {
    const holder = randomUUID();
    let pause = FIRST_POLL_MS;
    for (;;) {
      const taken = await this.db.query(
        `INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
         WHERE leases.expires_at <= now()
         RETURNING holder`,
        [name, holder, this.timing.ttlMs / 1000],
        PLANNED_ONCE,
      );
      if (taken.length > 0) return holder;
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await sleep(Math.min(pause, left));
      pause = Math.min(pause * 2, MAX_POLL_MS);
    }
  }

  private keepRenewed(name: string, holder: string): { stop(): void } {
    const timer = setInterval(() => {
      // A failed renewal is retried at the next tick; the TTL leaves room for two misses.
      this.db
        .query(
          'UPDATE leases SET expires_at = now() + make_interval(secs => $3) WHERE name = $1 AND holder = $2',
          [name, holder, this.timing.ttlMs / 1000],
          PLANNED_ONCE,
        )
        .catch(() => undefined);
    }, this.timing.renewEveryMs);
    timer.unref();
    return { stop: () => clearInterval(timer) };
  }
}
