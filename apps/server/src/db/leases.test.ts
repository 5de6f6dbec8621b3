import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/context';
import { Leases } from './leases';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const busy = () => new Error('busy');

describe('leases', () => {
  let ctx: TestContext;
  beforeAll(async () => (ctx = await createTestContext()));
  afterAll(() => ctx.close());

  const held = async () => ctx.db.query<{ name: string }>('SELECT name FROM leases');

  it('lets one holder of a name work at a time, in this process and in another, and names side by side', async () => {
    // Two instances are two server processes: only the table is shared.
    const here = new Leases(ctx.db);
    const there = new Leases(ctx.db);
    const running = new Map<string, number>();
    const most = new Map<string, number>();
    const work = (name: string) => async () => {
      running.set(name, (running.get(name) ?? 0) + 1);
      most.set(name, Math.max(most.get(name) ?? 0, running.get(name)!));
      await sleep(30);
      running.set(name, running.get(name)! - 1);
      return name;
    };
    const wait = { waitMs: 5_000, busy };
    const results = await Promise.all(
      [here, there, here, there, here, there].flatMap((leases) => [
        leases.run('a', wait, work('a')),
        leases.run('b', wait, work('b')),
      ]),
    );
    expect(results.filter((name) => name === 'a')).toHaveLength(6);
    expect(most.get('a')).toBe(1);
    expect(most.get('b')).toBe(1);
    expect(await held()).toEqual([]);
  });

  it('keeps the lease of a holder working past its TTL by renewing it', async () => {
    const timing = { ttlMs: 300, renewEveryMs: 100 };
    const holder = new Leases(ctx.db, timing);
    const other = new Leases(ctx.db, timing);
    let otherRan = false;
    const holding = holder.run('long', { waitMs: 1_000, busy }, () => sleep(1_000));
    await sleep(50);
    await expect(
      other.run('long', { waitMs: 700, busy }, async () => {
        otherRan = true;
      }),
    ).rejects.toThrow('busy');
    expect(otherRan).toBe(false);
    await holding;
    await other.run('long', { waitMs: 100, busy }, async () => {
      otherRan = true;
    });
    expect(otherRan).toBe(true);
  });

  it('releases the lease when the work fails', async () => {
    const leases = new Leases(ctx.db);
    await expect(
      leases.run('failing', { waitMs: 100, busy }, async () => {
        throw new Error('Cloudflare said no');
      }),
    ).rejects.toThrow('Cloudflare said no');
    expect(await held()).toEqual([]);
    await expect(leases.run('failing', { waitMs: 0, busy }, async () => 'next')).resolves.toBe('next');
  });

  it('keeps the order when a waiter gives up: the one after it still waits for the holder', async () => {
    const leases = new Leases(ctx.db);
    let holderDone = 0;
    const holding = leases.run('ordered', { waitMs: 100, busy }, async () => {
      await sleep(400);
      holderDone = Date.now();
    });
    const impatient = leases.run('ordered', { waitMs: 100, busy }, async () => 'impatient');
    await expect(impatient).rejects.toThrow('busy');
    const patientStarted = await leases.run('ordered', { waitMs: 2_000, busy }, async () => Date.now());
    await holding;
    expect(patientStarted).toBeGreaterThanOrEqual(holderDone);
  });
});
