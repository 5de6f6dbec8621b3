import type { LoginRateLimit } from '../../config';

interface Failures {
  count: number;
  windowEndsAt: number;
}

// Above this many tracked keys, expired ones are swept on the next failure, so memory stays bounded.
const SWEEP_ABOVE = 10_000;

/**
 * Counts failed sign-ins per e-mail and per client address in fixed windows. Only failures count, so
 * a person who types their password right is never slowed down, and success clears the e-mail's count.
 * An attempt counts as a failure from the moment it starts until it proves right (see `acquire`).
 */
export class LoginLimiter {
  private readonly failures = new Map<string, Failures>();

  constructor(
    private readonly limits: LoginRateLimit,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Takes one attempt from the e-mail's and the address's budgets before the password is checked, and
   * answers 0; or, when either budget is spent, takes nothing and answers the seconds to wait. Counting
   * up front means a burst of parallel guesses gets no more checks than the limit: each one sees the
   * attempts still in flight.
   */
  acquire(email: string, address: string): number {
    const emailKey = `email:${email.toLowerCase()}`;
    const addressKey = `address:${address}`;
    const wait = Math.max(
      this.wait(emailKey, this.limits.maxFailuresPerEmail),
      this.wait(addressKey, this.limits.maxFailuresPerAddress),
    );
    if (wait > 0) return wait;
    if (this.failures.size > SWEEP_ABOVE) this.sweep();
    this.count(emailKey);
    this.count(addressKey);
    return 0;
  }

  /** The attempt was right: the e-mail's count is cleared, and the address gets its attempt back. */
  recordSuccess(email: string, address: string): void {
    this.failures.delete(`email:${email.toLowerCase()}`);
    this.uncount(`address:${address}`);
  }

  /** The attempt could not be checked (e.g. the database was down): it does not count. */
  refund(email: string, address: string): void {
    this.uncount(`email:${email.toLowerCase()}`);
    this.uncount(`address:${address}`);
  }

  private uncount(key: string): void {
    const entry = this.current(key);
    if (entry) entry.count = Math.max(0, entry.count - 1);
  }

  private wait(key: string, max: number): number {
    const entry = this.current(key);
    return entry && entry.count >= max ? Math.ceil((entry.windowEndsAt - this.now()) / 1000) : 0;
  }

  private count(key: string): void {
    const entry = this.current(key);
    if (entry) entry.count += 1;
    else this.failures.set(key, { count: 1, windowEndsAt: this.now() + this.limits.windowSeconds * 1000 });
  }

  private current(key: string): Failures | undefined {
    const entry = this.failures.get(key);
    return entry && entry.windowEndsAt > this.now() ? entry : undefined;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.failures) if (entry.windowEndsAt <= now) this.failures.delete(key);
  }
}
