/**
 * Cloudflare's per-token limit (1,200 requests per 5 minutes): a fixed window that starts with a
 * token's first request; past the limit every call gets 429 until the window ends.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a request; returns the seconds to wait when the token is over its limit. */
  hit(key: string): number | null {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    if (window.count <= this.limit) return null;
    return Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
  }

  reset(): void {
    this.windows.clear();
  }
}
