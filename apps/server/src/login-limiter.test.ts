import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { LoginLimiter, MAX_DELAY_SECONDS, MAX_TRACKED_KEYS, type AttemptOutcome } from './login-limiter';

v8.setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const LIMITS = { windowSeconds: 3600, maxFailuresPerEmail: 5, maxFailuresPerAddress: 30 };

/** A limiter on a clock the test moves. */
function limiterAt(start = 1_000_000) {
  const clock = { now: start };
  const limiter = new LoginLimiter(LIMITS, () => clock.now);
  /** One sign-in: the seconds it was told to wait (0: checked, and it ended as `outcome`). */
  const attempt = async (email: string, address: string, outcome: AttemptOutcome = 'failure') => {
    const { retryAfterSeconds, settle } = await limiter.acquire(email, address);
    if (retryAfterSeconds === 0) settle(outcome);
    return retryAfterSeconds;
  };
  return { clock, limiter, attempt };
}

describe('LoginLimiter', () => {
  it('slows a pair down progressively after its allowance: 1 s, 2 s, 4 s... never more than 15 minutes', async () => {
    const { clock, attempt } = limiterAt();
    for (let i = 0; i < LIMITS.maxFailuresPerEmail; i++)
      expect(await attempt('owner@example.com', 'A')).toBe(0);
    const waits: number[] = [];
    for (let i = 0; i < 14; i++) {
      const wait = await attempt('owner@example.com', 'A');
      waits.push(wait);
      clock.now += wait * 1000;
      expect(await attempt('owner@example.com', 'A')).toBe(0);
    }
    expect(waits.slice(0, 6)).toEqual([1, 2, 4, 8, 16, 32]);
    expect(Math.max(...waits)).toBeLessThanOrEqual(MAX_DELAY_SECONDS);
    expect(waits.at(-1)).toBeGreaterThan(60);
  });

  it('never slows the owner down for what someone guesses from another address', async () => {
    const { attempt } = limiterAt();
    for (let i = 0; i < 200; i++) await attempt('owner@example.com', `attacker-${i % 3}`);
    expect(await attempt('owner@example.com', 'home', 'success')).toBe(0);
  });

  it('slows down an address that sprays many e-mails, but not the people who signed in from it before', async () => {
    const { attempt } = limiterAt();
    expect(await attempt('colleague@example.com', 'office', 'success')).toBe(0);
    for (let i = 0; i < LIMITS.maxFailuresPerAddress; i++)
      expect(await attempt(`spray${i}@example.com`, 'office')).toBe(0);
    expect(await attempt('someone-else@example.com', 'office')).toBeGreaterThan(0);
    expect(await attempt('colleague@example.com', 'office', 'success')).toBe(0);
  });

  it('lets failures drain: a pair gets its allowance back within the window', async () => {
    const { clock, attempt } = limiterAt();
    for (let i = 0; i < LIMITS.maxFailuresPerEmail; i++) await attempt('typo@example.com', 'A');
    expect(await attempt('typo@example.com', 'A')).toBeGreaterThan(0);
    clock.now += LIMITS.windowSeconds * 1000;
    for (let i = 0; i < LIMITS.maxFailuresPerEmail; i++)
      expect(await attempt('typo@example.com', 'A')).toBe(0);
  });

  it('creates nothing for the attempts of an address it refuses: 200,000 new e-mails leave the keys and the heap as they were', async () => {
    // Issue 13: every new e-mail from a refused address added a counter; 520,000 ran the heap out.
    const { limiter, attempt } = limiterAt();
    for (let i = 0; i < LIMITS.maxFailuresPerAddress; i++) await attempt(`probe${i}@example.com`, 'flood');
    const held = limiter.size;
    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    for (let i = 0; i < 200_000; i++) {
      const wait = await attempt(`new-${i}-looking-like-a-real-address@example.com`, 'flood');
      if (wait === 0) throw new Error(`attempt ${i} was checked`);
    }
    collectGarbage();
    // Before the fix: 200,031 keys and 50 MB more heap.
    expect(limiter.size).toBe(held);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(5 * 1024 * 1024);
  });

  it('holds at most MAX_TRACKED_KEYS counters however many addresses and e-mails fail', async () => {
    const { limiter, attempt } = limiterAt();
    for (let i = 0; i < MAX_TRACKED_KEYS * 3; i++)
      await attempt(`x${i}@example.com`, `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`);
    expect(limiter.size).toBeLessThanOrEqual(MAX_TRACKED_KEYS);
  });

  it('keeps nothing for sign-ins that succeed', async () => {
    const { limiter, attempt } = limiterAt();
    for (let i = 0; i < 1000; i++) await attempt(`person${i}@example.com`, `address-${i}`, 'success');
    expect(limiter.size).toBe(0);
  });
});
