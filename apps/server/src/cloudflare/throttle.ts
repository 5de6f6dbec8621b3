/** What the gateway asks before each call to Cloudflare: a slot in the token's request budget. */
export interface RequestThrottle {
  /** 0 when one more request may be sent (and it is counted); else the wait in ms, past `maxWaitMs`. */
  acquire(maxWaitMs?: number): Promise<number>;
  /** Cloudflare answered 429 anyway: hold every call of the token for `ms`. */
  blockFor(ms: number): void;
  /** Whether the token is held back now because Cloudflare asked (`blockFor`), not by the budget. */
  heldByCloudflare(): Promise<boolean>;
}

/**
 * A sliding-window limiter per Cloudflare token: Cloudflare allows 1,200 requests per 5 minutes per
 * token and then refuses everything for up to 5 minutes, so the console waits for a free slot
 * instead of ever hitting that wall.
 */
export class SlidingWindowThrottle implements RequestThrottle {
  private readonly sent: number[] = [];
  private blockedUntil = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Resolves 0 when one more request may be sent, and counts it. When the wait would be longer than
   * `maxWaitMs` (a person is waiting on the answer), resolves at once with the wait in ms instead,
   * counting nothing: the caller answers "rate limited" rather than hanging for minutes.
   */
  async acquire(maxWaitMs = Infinity): Promise<number> {
    for (;;) {
      const now = this.now();
      while (this.sent.length > 0 && this.sent[0]! <= now - this.windowMs) this.sent.shift();
      const waitForBlock = this.blockedUntil - now;
      const waitForSlot = this.sent.length < this.limit ? 0 : this.sent[0]! + this.windowMs - now;
      const wait = Math.max(waitForBlock, waitForSlot);
      if (wait <= 0) {
        this.sent.push(now);
        return 0;
      }
      if (wait > maxWaitMs) return wait;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** Cloudflare said 429 anyway (another client shares the token): hold every call until it allows. */
  blockFor(ms: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, this.now() + ms);
  }

  heldByCloudflare(): Promise<boolean> {
    return Promise.resolve(this.blockedUntil > this.now());
  }
}
