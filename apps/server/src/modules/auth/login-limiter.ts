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
 */
export class LoginLimiter {
  private readonly failures = new Map<string, Failures>();

  constructor(
    private readonly limits: LoginRateLimit,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until another attempt is allowed; 0 when it is allowed now. */
  retryAfterSeconds(email: string, address: string): number {
    const waits = [
      this.wait(`email:${email.toLowerCase()}`, this.limits.maxFailuresPerEmail),
      this.wait(`address:${address}`, this.limits.maxFailuresPerAddress),
    ];
    return Math.max(...waits);
  }

  recordFailure(email: string, address: string): void {
    if (this.failures.size > SWEEP_ABOVE) this.sweep();
    this.count(`email:${email.toLowerCase()}`);
    this.count(`address:${address}`);
  }

  recordSuccess(email: string): void {
    this.failures.delete(`email:${email.toLowerCase()}`);
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
