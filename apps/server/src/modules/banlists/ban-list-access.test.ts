import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../app-error';
import { createAppDeps } from '../../app';
import { Leases } from '../../db/leases';
import { createTestContext, type TestContext } from '../../test/context';
import { BanListAccess } from './ban-list-access';
import { KeyedLock } from './keyed-lock';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** What one server process has: its own in-memory turns and leases, on the shared database. */
const processOn = (listWaitMs: number) =>
  new BanListAccess(
    createAppDeps(ctx.config, ctx.db),
    new KeyedLock(),
    new Leases(ctx.db),
    30_000,
    undefined,
    listWaitMs,
  );

/** A write that holds its list's turn until `release` is called; `ended` notes when its work ended. */
function held(ended: () => void = () => undefined) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  return {
    release,
    running,
    work: async () => {
      started();
      await released;
      ended();
      return 'first';
    },
  };
}

describe("a list's writes, across server processes", () => {
  it("wait for the list's turn held by another process, then run", async () => {
    const [a, b] = [processOn(5_000), processOn(5_000)];
    const order: string[] = [];
    const first = held(() => order.push('first'));
    const writeA = a.writing(101, first.work);
    await first.running;
    const writeB = b.writing(101, async () => order.push('second'));
    // Another list is not held up.
    await b.writing(102, async () => order.push('other list'));
    first.release();
    await Promise.all([writeA, writeB]);
    expect(order).toEqual(['other list', 'first', 'second']);
  });

  it('are refused with a 409 in words, and not run, after the wait runs out', async () => {
    const [a, b] = [processOn(5_000), processOn(200)];
    const first = held();
    const writeA = a.writing(103, first.work);
    await first.running;
    let ran = false;
    const err = await b
      .writing(103, async () => {
        ran = true;
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('CONFLICT');
    expect((err as AppError).message).toBe(
      'Another change to this list (a sync, an import or a removal) is still running. Please try again in a moment.',
    );
    expect(ran).toBe(false);
    first.release();
    await writeA;
    // The turn is free again once the first write ended.
    await expect(b.writing(103, async () => 'after')).resolves.toBe('after');
  });
});
