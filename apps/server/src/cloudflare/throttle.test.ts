import { afterEach, describe, expect, it, vi } from 'vitest';
import { SlidingWindowThrottle } from './throttle';

describe('SlidingWindowThrottle', () => {
  afterEach(() => vi.useRealTimers());

  it('lets the limit through at once, then waits for the window to slide', async () => {
    vi.useFakeTimers();
    const throttle = new SlidingWindowThrottle(3, 1_000);
    for (let i = 0; i < 3; i++) await throttle.acquire();
    let fourth = false;
    void throttle.acquire().then(() => (fourth = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(fourth).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(fourth).toBe(true);
  });

  it('holds every call while Cloudflare asked to wait', async () => {
    vi.useFakeTimers();
    const throttle = new SlidingWindowThrottle(100, 1_000);
    throttle.blockFor(5_000);
    let sent = false;
    void throttle.acquire().then(() => (sent = true));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(sent).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toBe(true);
  });

  it('answers the wait at once, counting nothing, when it is longer than the caller can wait', async () => {
    vi.useFakeTimers();
    const throttle = new SlidingWindowThrottle(2, 60_000);
    expect(await throttle.acquire(1_000)).toBe(0);
    expect(await throttle.acquire(1_000)).toBe(0);
    expect(await throttle.acquire(1_000)).toBe(60_000);
    throttle.blockFor(300_000);
    expect(await throttle.acquire(20_000)).toBe(300_000);
    await vi.advanceTimersByTimeAsync(300_000);
    expect(await throttle.acquire(20_000)).toBe(0);
  });
});
