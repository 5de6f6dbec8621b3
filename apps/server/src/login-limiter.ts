import { LRUCache } from 'lru-cache';
import { AppError } from './app-error';
import type { LoginRateLimit } from './config';

interface Counter {
  /** Failures still held against the key: each failure adds one, and they drain over time. */
  failures: number;
  /** When `failures` was last drained. */
  drainedAt: number;
  lastFailureAt: number;
  /** Attempts being checked right now: each may still turn out to be a failure. */
  pending: number;
  /** Attempts waiting for a pending one to settle. */
  waiters: (() => void)[];
}

export type AttemptOutcome = 'success' | 'failure' | 'unchecked';

/** Failures held against a key: one is forgiven only once it has drained away entirely. */
const held = (counter: Counter) => Math.ceil(counter.failures - 1e-9);

/** A sign-in attempt the limiter let through (`retryAfterSeconds` 0) or told to wait. */
export interface Attempt {
  retryAfterSeconds: number;
  /** How the check ended; 'unchecked': it could not be made (the database is down). Once only. */
  settle(outcome: AttemptOutcome): void;
}

/** A counter's name and allowance; a subclass may count other things than (e-mail, address). */
export interface Key {
  kind: 'pair' | 'address';
  name: string;
  /** Failures held before attempts are slowed down. */
  allowance: number;
}

/** The longest wait between two attempts, however many failures a key holds. */
export const MAX_DELAY_SECONDS = 15 * 60;
/** Counters kept at most: beyond it the least recently used are forgotten, so memory stays bounded. */
export const MAX_TRACKED_KEYS = 20_000;
/** (e-mail, address) pairs that signed in successfully, remembered at most, and for how long. */
const MAX_RECOGNISED_PAIRS = 10_000;
const RECOGNISED_FOR_MS = 30 * 24 * 3600 * 1000;

/**
 * Slows down password guessing without handing anyone a lockout (OWASP's authentication guidance):
 * failures are counted per (e-mail, client address) pair and per client address, never per e-mail
 * alone, so someone guessing from elsewhere cannot lock the owner out. Each key has an allowance of
 * failures (`maxFailuresPerEmail` per pair, `maxFailuresPerAddress` per address); beyond it the next
 * attempt must wait 1 s after the last failure, then 2 s, 4 s... up to 15 minutes (a 429 with
 * Retry-After until then). Failures drain at the key's allowance per `windowSeconds`, so a patient
 * guesser gets that many guesses per window per address, and a person who mistyped is soon back to
 * normal. A success clears the pair, and for 30 days that pair is no longer held to its address's
 * count: people behind the same address as a password sprayer keep signing in.
 *
 * The limit also holds against a burst of parallel guesses: an attempt being checked may still be a
 * failure, so once failures plus attempts in progress reach the allowance, further attempts wait for
 * one to settle (a right password frees its place at once; a wrong one counts, and everyone waiting is
 * then told to wait). A crowd signing in from one office just queues for a moment.
 *
 * Memory is bounded whatever the traffic: an attempt refused by its address's count creates nothing,
 * counters are kept only while they hold failures or attempts in progress, and at most
 * `MAX_TRACKED_KEYS` of them (least recently used forgotten first).
 */
export class LoginLimiter {
  private readonly counters: LRUCache<string, Counter>;
  private readonly recognisedPairs: LRUCache<string, true>;

  constructor(
    protected readonly limits: LoginRateLimit,
    private readonly now: () => number = Date.now,
  ) {
    this.counters = new LRUCache({
      max: MAX_TRACKED_KEYS,
      // A forgotten counter must not leave its waiters waiting forever.
      dispose: (counter) => counter.waiters.splice(0).forEach((wake) => wake()),
    });
    this.recognisedPairs = new LRUCache({ max: MAX_RECOGNISED_PAIRS, ttl: RECOGNISED_FOR_MS });
  }

  /** Counters held now (for tests and monitoring): at most `MAX_TRACKED_KEYS`. */
  get size(): number {
    return this.counters.size;
  }

  /**
   * Waits until the attempt may be checked, then answers an attempt in progress: report how it ended
   * with `settle`. When the pair or the address must wait first, `retryAfterSeconds` says how long (and
   * `settle` does nothing).
   */
  async acquire(email: string, address: string): Promise<Attempt> {
    const keys = this.keysOf(email, address);
    for (;;) {
      const now = this.now();
      const counters = keys.map((key) => this.drained(key, now));
      const wait = Math.max(...keys.map((key, index) => this.secondsToWait(counters[index], key, now)));
      if (wait > 0) return { retryAfterSeconds: wait, settle: () => {} };
      const full = keys.findIndex((key, index) => {
        const counter = counters[index];
        // Past its allowance a key has one attempt checked at a time.
        return counter && counter.pending >= Math.max(1, key.allowance - held(counter));
      });
      if (full < 0) {
        for (const key of keys) this.counterOf(key.name, now).pending += 1;
        let settled = false;
        return {
          retryAfterSeconds: 0,
          settle: (outcome) => {
            if (!settled) this.settle(keys, outcome);
            settled = true;
          },
        };
      }
      await new Promise<void>((resolve) => counters[full]!.waiters.push(resolve));
    }
  }

  /**
   * One limited attempt: refused with RATE_LIMITED (`tooMany`, and Retry-After) while the key or the
   * address must wait; else `check` runs and its verdict settles the attempt: a refusal counts as a
   * failure and is thrown, a value as a success and is answered. A check that throws (the database is
   * down) does not count against the person.
   */
  async attempt<T>(
    key: string,
    address: string,
    tooMany: string,
    check: () => Promise<{ refusal: AppError } | { value: T }>,
  ): Promise<T> {
    const attempt = await this.acquire(key, address);
    const { retryAfterSeconds } = attempt;
    if (retryAfterSeconds > 0) throw new AppError('RATE_LIMITED', tooMany, { retryAfterSeconds });
    let verdict: Awaited<ReturnType<typeof check>>;
    try {
      verdict = await check();
    } catch (err) {
      attempt.settle('unchecked');
      throw err;
    }
    attempt.settle('refusal' in verdict ? 'failure' : 'success');
    if ('refusal' in verdict) throw verdict.refusal;
    return verdict.value;
  }

  private settle(keys: Key[], outcome: AttemptOutcome): void {
    const now = this.now();
    for (const key of keys) {
      const counter = this.drained(key, now);
      if (!counter) continue;
      counter.pending = Math.max(0, counter.pending - 1);
      if (outcome === 'failure') {
        counter.failures += 1;
        counter.lastFailureAt = now;
      } else if (outcome === 'success' && key.kind === 'pair') {
        counter.failures = 0;
      }
      for (const wake of counter.waiters.splice(0)) wake();
      if (counter.failures === 0 && counter.pending === 0) this.counters.delete(key.name);
      // Kept until its failures have drained away, then forgotten.
      else this.counters.set(key.name, counter, { ttl: this.drainMs(counter.failures, key.allowance) || 1 });
    }
    if (outcome === 'success') this.recognisedPairs.set(keys[0]!.name, true);
  }

  /** The pair first; the address only for a pair that has not signed in from there lately. */
  protected keysOf(email: string, address: string): Key[] {
    const pair: Key = {
      kind: 'pair',
      name: `pair:${address} ${email.toLowerCase()}`,
      allowance: this.limits.maxFailuresPerEmail,
    };
    if (this.recognisedPairs.has(pair.name)) return [pair];
    return [
      pair,
      { kind: 'address', name: `address:${address}`, allowance: this.limits.maxFailuresPerAddress },
    ];
  }

  private secondsToWait(counter: Counter | undefined, { allowance }: Key, now: number): number {
    if (!counter || held(counter) < allowance) return 0;
    const delaySeconds = Math.min(MAX_DELAY_SECONDS, 2 ** (held(counter) - allowance));
    return Math.max(0, Math.ceil((counter.lastFailureAt + delaySeconds * 1000 - now) / 1000));
  }

  private drainMs(failures: number, allowance: number): number {
    return Math.ceil((failures / allowance) * this.limits.windowSeconds * 1000);
  }

  /** The key's counter with its failures drained to `now`, or undefined when none is kept. */
  private drained({ name, allowance }: Key, now: number): Counter | undefined {
    const counter = this.counters.get(name);
    if (!counter) return undefined;
    const drainedFailures = ((now - counter.drainedAt) / (this.limits.windowSeconds * 1000)) * allowance;
    counter.failures = Math.max(0, counter.failures - drainedFailures);
    counter.drainedAt = now;
    return counter;
  }

  private counterOf(key: string, now: number): Counter {
    let counter = this.counters.get(key);
    if (!counter) {
      counter = { failures: 0, drainedAt: now, lastFailureAt: 0, pending: 0, waiters: [] };
      this.counters.set(key, counter);
    }
    return counter;
  }
}
