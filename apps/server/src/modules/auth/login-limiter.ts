import type { LoginRateLimit } from '../../config';

interface Counter {
  /** Failed attempts in the current window. */
  failures: number;
  windowEndsAt: number;
  /** Attempts being checked right now: each may still turn out to be a failure. */
  pending: number;
  /** Attempts waiting for a pending one to settle. */
  waiters: (() => void)[];
}

// Above this many tracked keys, idle expired ones are swept, so memory stays bounded.
const SWEEP_ABOVE = 10_000;

export type AttemptOutcome = 'success' | 'failure' | 'unchecked';

/**
 * Counts failed sign-ins per e-mail and per client address in fixed windows. Only failures count, so
 * a person who types their password right is never slowed down, and success clears the e-mail's count.
 *
 * The limit also holds against a burst of parallel guesses: an attempt being checked may still be a
 * failure, so once failures plus attempts in progress reach the limit, further attempts wait for one
 * of those to settle (a right password frees its place at once; a wrong one counts, and at the limit
 * everyone waiting is refused). A crowd of people signing in from one office address just queues for
 * a moment; a burst of guesses gets exactly the limit checked.
 */
export class LoginLimiter {
  private readonly counters = new Map<string, Counter>();

  constructor(
    private readonly limits: LoginRateLimit,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Resolves 0 once the attempt may be checked (it is then in progress: report it with `settle`), or
   * the seconds to wait when the e-mail or the address has used up its failures for this window.
   */
  async acquire(email: string, address: string): Promise<number> {
    const keys = this.keysOf(email, address);
    for (;;) {
      const counters = keys.map(([key]) => this.counter(key));
      const wait = Math.max(
        ...keys.map(([, max], index) =>
          counters[index]!.failures >= max
            ? Math.ceil((counters[index]!.windowEndsAt - this.now()) / 1000)
            : 0,
        ),
      );
      if (wait > 0) return wait;
      const full = keys.findIndex(
        ([, max], index) => counters[index]!.failures + counters[index]!.pending >= max,
      );
      if (full < 0) {
        for (const counter of counters) counter.pending += 1;
        return 0;
      }
      await new Promise<void>((resolve) => counters[full]!.waiters.push(resolve));
    }
  }

  /** Reports how an attempt that `acquire` let through ended; 'unchecked': it could not be checked. */
  settle(email: string, address: string, outcome: AttemptOutcome): void {
    for (const [key] of this.keysOf(email, address)) {
      const counter = this.counter(key);
      counter.pending = Math.max(0, counter.pending - 1);
      if (outcome === 'failure') counter.failures += 1;
      else if (outcome === 'success' && key.startsWith('email:')) counter.failures = 0;
      for (const wake of counter.waiters.splice(0)) wake();
    }
    if (this.counters.size > SWEEP_ABOVE) this.sweep();
  }

  private keysOf(email: string, address: string): [string, number][] {
    return [
      [`email:${email.toLowerCase()}`, this.limits.maxFailuresPerEmail],
      [`address:${address}`, this.limits.maxFailuresPerAddress],
    ];
  }

  /** The key's counter, its failures forgotten when its window has ended. */
  private counter(key: string): Counter {
    const now = this.now();
    let counter = this.counters.get(key);
    if (!counter) {
      counter = {
        failures: 0,
        windowEndsAt: now + this.limits.windowSeconds * 1000,
        pending: 0,
        waiters: [],
      };
      this.counters.set(key, counter);
    } else if (counter.windowEndsAt <= now) {
      counter.failures = 0;
      counter.windowEndsAt = now + this.limits.windowSeconds * 1000;
    }
    return counter;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, counter] of this.counters) {
      if (counter.windowEndsAt <= now && counter.pending === 0 && counter.waiters.length === 0)
        this.counters.delete(key);
    }
  }
}
