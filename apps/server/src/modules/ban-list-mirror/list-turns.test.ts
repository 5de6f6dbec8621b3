import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../app-error';
import { Leases } from '../../db/leases';
import { createTestContext, type TestContext } from '../../test/context';
import { ListTurns } from './list-turns';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** What one server process has: its own leases (and their queues in memory), on the shared database. */
const processOn = (listWaitMs: number) => new ListTurns(new Leases(ctx.db), { changed() {} }, listWaitMs);

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

/** The 409 a write gets when its list's turn does not come within the wait. */
function expectListBusy(err: unknown) {
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('CONFLICT');
  expect((err as AppError).message).toBe(
    'Another change to this list (a sync, an import or a removal) is still running. Please try again in a moment.',
  );
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
    expectListBusy(err);
    expect(ran).toBe(false);
    first.release();
    await writeA;
    // The turn is free again once the first write ended.
    await expect(b.writing(103, async () => 'after')).resolves.toBe('after');
  });
});

describe("a list's writes, in one server process", () => {
  it('are refused with the same 409, and not run, after the wait runs out; the writes after them keep their order', async () => {
    const a = processOn(200);
    const order: string[] = [];
    const first = held(() => order.push('first'));
    const writeFirst = a.writing(104, first.work);
    await first.running;
    const refused = await a
      .writing(104, async () => {
        order.push('refused');
      })
      .catch((e: unknown) => e);
    expectListBusy(refused);
    // Queued after the refused one: runs once the first ends, within its own wait.
    const third = a.writing(104, async () => order.push('third'));
    first.release();
    await Promise.all([writeFirst, third]);
    expect(order).toEqual(['first', 'third']);
  });

  it('wait for the turn as long as it takes less than the wait', async () => {
    const a = processOn(5_000);
    const order: string[] = [];
    const first = held(() => order.push('first'));
    const writeFirst = a.writing(105, first.work);
    await first.running;
    const second = a.writing(105, async () => order.push('second'));
    setTimeout(first.release, 300);
    await Promise.all([writeFirst, second]);
    expect(order).toEqual(['first', 'second']);
  });
});
