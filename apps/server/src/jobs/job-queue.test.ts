import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../app-error';
import { createTestContext, type TestContext, type TestUser } from '../test/context';
import { z } from 'zod';
import type { Db } from '../db';
import {
  JobQueue,
  type JobContext,
  type JobHandler,
  type JobQueueOptions,
  type RetryPolicy,
} from './job-queue';
import { countingDb } from '../test/counting-db';

let ctx: TestContext;
let user: TestUser;
beforeAll(async () => {
  ctx = await createTestContext();
  user = await ctx.createUser();
});
afterAll(() => ctx.close());

const FAST = { pollMs: 50, heartbeatMs: 100, staleMs: 1_000, progressEveryMs: 0 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A job that steps `steps` times, 20 ms each, noting every run; it stops when its signal says. */
function stepping(runs: string[], steps = 10): JobHandler {
  return async ({ job, signal, progress }: JobContext) => {
    runs.push(job.id);
    for (let step = 1; step <= steps; step++) {
      signal.throwIfAborted();
      await sleep(20);
      progress(step, steps);
    }
    return { steps };
  };
}

/** Test kinds: any details, no account turn and tried 3 times a second apart, unless told otherwise. */
function queueWith(
  db: Db,
  handlers: Record<string, JobHandler>,
  {
    retry,
    accountTurn = false,
    ...options
  }: Partial<JobQueueOptions> & { retry?: Partial<RetryPolicy>; accountTurn?: boolean } = {},
): JobQueue {
  const policy = { attempts: 3, delaySeconds: 1, ...retry };
  const kinds = Object.fromEntries(
    Object.keys(handlers).map((kind) => [
      kind,
      { payload: z.record(z.string(), z.unknown()), accountTurn, retry: policy },
    ]),
  );
  const queue = new JobQueue(db, kinds, { ...FAST, ...options });
  queue.handle(handlers);
  return queue;
}

async function startedQueue(
  handlers: Record<string, JobHandler>,
  options: Parameters<typeof queueWith>[2] = {},
): Promise<JobQueue> {
  const queue = queueWith(ctx.db, handlers, options);
  await queue.start();
  return queue;
}

describe('job queue', () => {
  it('sends one heartbeat at a time: on a slow database they do not pile up behind each other', async () => {
    let inFlight = 0;
    let most = 0;
    const slow = Object.create(ctx.db) as typeof ctx.db;
    slow.query = async <T>(sql: string, params?: readonly unknown[]) => {
      if (!sql.startsWith('UPDATE jobs SET heartbeat_at')) return ctx.db.query<T>(sql, params);
      inFlight += 1;
      most = Math.max(most, inFlight);
      try {
        await sleep(450);
        return await ctx.db.query<T>(sql, params);
      } finally {
        inFlight -= 1;
      }
    };
    const queue = queueWith(slow, { 'test-steps': stepping([], 60) }, { heartbeatMs: 100 });
    await queue.start();
    try {
      const job = await queue.enqueue({ kind: 'test-steps', userId: user.id, target: 'slow', data: {} });
      expect(await queue.waitFor(job.id, 20_000)).toMatchObject({ state: 'succeeded' });
      expect(most).toBe(1);
    } finally {
      await queue.stop();
    }
  });

  it('an idle worker asks the database once a poll, whatever the number of kinds it takes', async () => {
    const { db: counted, statements } = countingDb(ctx.db);
    const kinds = Array.from({ length: 8 }, (_, i) => `test-idle-${i}`);
    const runs: string[] = [];
    const queue = queueWith(counted, Object.fromEntries(kinds.map((kind) => [kind, stepping(runs, 1)])), {
      pollMs: 100,
    });
    await queue.start();
    try {
      await sleep(300);
      statements.length = 0;
      await sleep(1_000);
      // About 10 polls of 100 ms; a statement per kind would be 80.
      expect(statements.length).toBeGreaterThan(0);
      expect(statements.length).toBeLessThanOrEqual(12);
      // The jobs are still found and run, of any kind.
      const job = await queue.enqueue({ kind: kinds[7]!, userId: user.id, target: 'last kind', data: {} });
      expect(await queue.waitFor(job.id, 10_000)).toMatchObject({ state: 'succeeded' });
    } finally {
      await queue.stop();
    }
  });

  it('a job sent from this process is taken at once, in one statement after its own: no poll waited for', async () => {
    const { db: counted, statements } = countingDb(ctx.db);
    let atStart: string[] | undefined;
    const queue = queueWith(
      counted,
      { 'test-now': async () => void (atStart ??= [...statements]) },
      { pollMs: 60_000, heartbeatMs: 60_000 },
    );
    await queue.start();
    try {
      // The loop's first poll at start is over: it sleeps for a minute now.
      await sleep(300);
      statements.length = 0;
      const job = await queue.enqueue({ kind: 'test-now', userId: user.id, target: 'now', data: {} });
      expect(await queue.waitFor(job.id, 20_000, job)).toMatchObject({ state: 'succeeded' });
      // The insert, then the take that claims it: a job is ready in the millisecond it was sent.
      expect(atStart).toEqual([
        expect.stringContaining('INSERT INTO jobs'),
        expect.stringContaining('FOR UPDATE SKIP LOCKED'),
      ]);
    } finally {
      await queue.stop();
    }
  });

  it('enqueue and claim answer the job from their own statement: it is not read again', async () => {
    const { db: counted, statements } = countingDb(ctx.db);
    const reads = () => statements.filter((sql) => sql.includes('FROM jobs j JOIN users'));
    let seen: JobContext['job'] | undefined;
    let readsBeforeRun: string[] | undefined;
    const queue = queueWith(
      counted,
      {
        'test-rows': async ({ job }: JobContext) => {
          readsBeforeRun = reads();
          seen = job;
          return { ok: true };
        },
      },
      { heartbeatMs: 60_000 },
    );
    await queue.start();
    try {
      await sleep(100);
      statements.length = 0;
      const job = await queue.enqueue({ kind: 'test-rows', userId: user.id, target: 'rows', data: { n: 1 } });
      expect(job).toMatchObject({ state: 'queued', userEmail: user.email, target: 'rows', data: { n: 1 } });
      expect(job.createdAt).toBeInstanceOf(Date);
      // No waiter yet: only the run could read the row, and it was given the claimed one.
      while (!seen) await sleep(5);
      expect(readsBeforeRun).toEqual([]);
      expect(seen).toMatchObject({ id: job.id, state: 'running', attempts: 1, userEmail: user.email });
      expect(seen.startedAt).toBeInstanceOf(Date);
      expect(await queue.waitFor(job.id, 20_000)).toMatchObject({ state: 'succeeded', result: { ok: true } });
    } finally {
      await queue.stop();
    }
  });

  it('a waiter does not poll the row of a job this process runs: the run tells its end', async () => {
    const { db: counted, statements } = countingDb(ctx.db);
    const reads = () => statements.filter((sql) => sql.includes('FROM jobs j JOIN users')).length;
    let started = false;
    const queue = queueWith(
      counted,
      {
        'test-slow': async ({ progress }: JobContext) => {
          started = true;
          progress(1, 2);
          await sleep(700);
          return 'slow';
        },
      },
      { heartbeatMs: 60_000 },
    );
    await queue.start();
    try {
      const job = await queue.enqueue({ kind: 'test-slow', userId: user.id, target: '', data: {} });
      while (!started) await sleep(5);
      const before = reads();
      expect(await queue.waitFor(job.id, 10_000, job)).toMatchObject({ state: 'succeeded', result: 'slow' });
      expect(reads() - before).toBe(0);
      // A wait that runs out answers the row as it is then: read once, at the end.
      started = false;
      const again = await queue.enqueue({ kind: 'test-slow', userId: user.id, target: '', data: {} });
      while (!started) await sleep(5);
      await sleep(50);
      const beforeShort = reads();
      expect(await queue.waitFor(again.id, 300, again)).toMatchObject({ state: 'running', progressDone: 1 });
      expect(reads() - beforeShort).toBe(1);
      expect(await queue.waitFor(again.id, 10_000)).toMatchObject({ state: 'succeeded' });
    } finally {
      await queue.stop();
    }
  });

  it('writes the progress of a run shorter than the throttle allows with its end, in the same statement', async () => {
    const { db: counted, statements } = countingDb(ctx.db);
    const queue = queueWith(
      counted,
      {
        'test-counts': async ({ progress }: JobContext) => {
          for (let done = 0; done <= 3; done++) progress(done, 3);
          return 'counted';
        },
      },
      { heartbeatMs: 60_000, progressEveryMs: 60_000 },
    );
    await queue.start();
    try {
      statements.length = 0;
      const job = await queue.enqueue({ kind: 'test-counts', userId: user.id, target: '', data: {} });
      const ended = await queue.waitFor(job.id, 20_000, job);
      expect(ended).toMatchObject({ state: 'succeeded', progressDone: 3, progressTotal: 3 });
      expect(await queue.jobs.find(job.id)).toMatchObject({ progressDone: 3, progressTotal: 3 });
      // A run shorter than the throttle's span writes its progress only with its end.
      expect(statements.filter((sql) => sql.startsWith('UPDATE jobs SET progress_done'))).toHaveLength(0);
    } finally {
      await queue.stop();
    }
  });

  it('writes the held-back report at once when the run flushes it, before a long step that reports nothing', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let flushed = false;
    const queue = queueWith(
      ctx.db,
      {
        'test-flush': async ({ progress, flushProgress }: JobContext) => {
          for (let done = 0; done <= 7; done++) progress(done, 7);
          await flushProgress();
          flushed = true;
          // The long step: an index build, say.
          await held;
        },
      },
      { heartbeatMs: 60_000, progressEveryMs: 60_000 },
    );
    await queue.start();
    try {
      const job = await queue.enqueue({ kind: 'test-flush', userId: user.id, target: '', data: {} });
      const deadline = Date.now() + 20_000;
      while (!flushed && Date.now() < deadline) await sleep(10);
      // Still running, and the row already shows the last count (the throttle alone would hold it a minute).
      expect(await queue.jobs.find(job.id)).toMatchObject({
        state: 'running',
        progressDone: 7,
        progressTotal: 7,
      });
      release();
      expect(await queue.waitFor(job.id, 20_000, job)).toMatchObject({ state: 'succeeded', progressDone: 7 });
    } finally {
      release();
      await queue.stop();
    }
  });

  it('enqueue is one statement, without a transaction', async () => {
    const { db: counted, statements } = countingDb(ctx.db);
    let transactions = 0;
    counted.transaction = (fn) => {
      transactions += 1;
      return ctx.db.transaction(fn);
    };
    const queue = queueWith(counted, { 'test-one': async () => 'one' }, { heartbeatMs: 60_000 });
    await queue.start();
    try {
      await sleep(100);
      statements.length = 0;
      const job = await queue.enqueue({ kind: 'test-one', userId: user.id, target: 'one', data: {} });
      expect(statements.slice(0, 1)).toEqual([expect.stringContaining('INSERT INTO jobs')]);
      expect(statements.filter((sql) => sql.includes('INSERT INTO jobs'))).toHaveLength(1);
      expect(transactions).toBe(0);
      expect(job).toMatchObject({ state: 'queued', kind: 'test-one', maxAttempts: 3 });
      expect(await queue.waitFor(job.id, 20_000, job)).toMatchObject({ state: 'succeeded', result: 'one' });
    } finally {
      await queue.stop();
    }
  });

  it('takes a job and claims its row in one statement; a row no longer queued is not run', async () => {
    const { db: counted, statements } = countingDb(ctx.db);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const runs: string[] = [];
    let atStart: string[] | undefined;
    const queue = queueWith(
      counted,
      {
        'test-take': async ({ job }: JobContext) => {
          atStart ??= [...statements];
          runs.push(job.id);
          if (job.target === 'first') await held;
        },
      },
      { heartbeatMs: 60_000, concurrency: 1 },
    );
    await queue.start();
    try {
      await sleep(100);
      statements.length = 0;
      const first = await queue.enqueue({ kind: 'test-take', userId: user.id, target: 'first', data: {} });
      while (!atStart) await sleep(5);
      // Every look the worker took is one claiming statement (on a busy machine its poll may come
      // between the enqueue and the wake-up, finding nothing): no read of the row before its claim.
      const claims = atStart.filter((sql) => sql.includes("UPDATE jobs SET state = 'running'"));
      expect(claims.length).toBeGreaterThanOrEqual(1);
      for (const claim of claims) expect(claim).toContain('FOR UPDATE SKIP LOCKED');
      expect(atStart.filter((sql) => /^\s*SELECT\b[\s\S]*\bFROM jobs\b/.test(sql))).toEqual([]);
      // The one slot is busy: a second job waits; its row is cancelled behind the queue's back.
      const second = await queue.enqueue({ kind: 'test-take', userId: user.id, target: 'second', data: {} });
      await ctx.db.query(
        `UPDATE jobs SET state = 'cancelled', cancel_requested = true, finished_at = now() WHERE id = $1`,
        [second.id],
      );
      release();
      expect(await queue.waitFor(first.id, 20_000)).toMatchObject({ state: 'succeeded' });
      // The worker has looked again since (its slot is free), and found nothing to take.
      await sleep(300);
      expect(runs).toEqual([first.id]);
      expect(await queue.jobs.find(second.id)).toMatchObject({ state: 'cancelled', attempts: 0 });
    } finally {
      release();
      await queue.stop();
    }
  });

  it('runs a job and keeps its result and progress', async () => {
    const runs: string[] = [];
    const queue = await startedQueue({ 'test-steps': stepping(runs, 5) });
    try {
      const job = await queue.enqueue({ kind: 'test-steps', userId: user.id, target: 'five', data: {} });
      expect(job.state).toBe('queued');
      const ended = await queue.waitFor(job.id, 10_000);
      expect(ended).toMatchObject({ state: 'succeeded', result: { steps: 5 }, progressDone: 5, attempts: 1 });
      expect(ended?.progressTotal).toBe(5);
    } finally {
      await queue.stop();
    }
  });

  it('keeps the last progress a job reported, also one that came sooner than progressEveryMs', async () => {
    const queue = await startedQueue({ 'test-steps': stepping([], 5) }, { progressEveryMs: 60_000 });
    try {
      const job = await queue.enqueue({ kind: 'test-steps', userId: user.id, target: 'five', data: {} });
      const ended = await queue.waitFor(job.id, 10_000);
      expect(ended).toMatchObject({ state: 'succeeded', progressDone: 5, progressTotal: 5 });
    } finally {
      await queue.stop();
    }
  });

  it('writes a report the throttle held back once the throttle allows, while the job still runs', async () => {
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const queue = await startedQueue(
      {
        'test-last-steps': async ({ progress }: JobContext) => {
          progress(1, 10);
          progress(10, 10);
          // Then a long last step (a sync's index build) with nothing more to report.
          await finished;
          return {};
        },
      },
      { progressEveryMs: 300 },
    );
    try {
      const job = await queue.enqueue({ kind: 'test-last-steps', userId: user.id, target: 'last', data: {} });
      const deadline = Date.now() + 20_000;
      let shown = 0;
      while (Date.now() < deadline && shown < 10) {
        await sleep(50);
        shown = (await queue.jobs.find(job.id))?.progressDone ?? 0;
      }
      expect(shown).toBe(10);
      expect((await queue.jobs.find(job.id))?.state).toBe('running');
      finish();
      expect(await queue.waitFor(job.id, 10_000)).toMatchObject({ state: 'succeeded', progressDone: 10 });
    } finally {
      finish();
      await queue.stop();
    }
  });

  it('fails a job whose error would come again at once, in words', async () => {
    const queue = await startedQueue({
      'test-refused': () => Promise.reject(new AppError('NOT_FOUND', 'Ban list not found.')),
    });
    const crashing = await startedQueue({
      'test-crash': () => Promise.reject(new TypeError("Cannot read properties of undefined (reading 'x')")),
    });
    try {
      const refused = await queue.enqueue({ kind: 'test-refused', userId: user.id, target: '', data: {} });
      expect(await queue.waitFor(refused.id, 10_000)).toMatchObject({
        state: 'failed',
        error: 'Ban list not found.',
        attempts: 1,
      });
      const crashed = await crashing.enqueue({ kind: 'test-crash', userId: user.id, target: '', data: {} });
      const ended = await crashing.waitFor(crashed.id, 10_000);
      expect(ended?.state).toBe('failed');
      expect(ended?.error).toBe('Something went wrong on the server while doing this. Please try again.');
    } finally {
      await queue.stop();
      await crashing.stop();
    }
  });

  it('fails a job whose stored details do not fit its kind, in words, without running it', async () => {
    const runs: string[] = [];
    const kinds = {
      'test-typed': {
        payload: z.object({ listId: z.string() }),
        accountTurn: false,
        retry: { attempts: 3, delaySeconds: 1 },
      },
    };
    const queue = new JobQueue(ctx.db, kinds, FAST);
    queue.handle({
      'test-typed': async ({ job }) => {
        runs.push(job.data.listId);
        return job.data.listId;
      },
    });
    await queue.start();
    try {
      const fits = await queue.enqueue({
        kind: 'test-typed',
        userId: user.id,
        target: '',
        data: { listId: 'a' },
      });
      expect(await queue.waitFor(fits.id, 10_000)).toMatchObject({ state: 'succeeded', result: 'a' });
      // As a row written by another version, or by hand: its details are read by the schema first.
      const wrong = await queue.enqueue({
        kind: 'test-typed',
        userId: user.id,
        target: '',
        // @ts-expect-error: a number is no list id, and sending it does not compile
        data: { listId: 7 },
      });
      expect(await queue.waitFor(wrong.id, 10_000)).toMatchObject({
        state: 'failed',
        attempts: 1,
        error: expect.stringMatching(
          /^This job's details are not what a "test-typed" job takes, so it was not run: listId: /,
        ),
      });
      expect(runs).toEqual(['a']);
    } finally {
      await queue.stop();
    }
  });

  it('retries a failure that may pass (Cloudflare unavailable) after its delay, doubling, then succeeds', async () => {
    const calls: number[] = [];
    const queue = await startedQueue({
      'test-flaky': async () => {
        calls.push(Date.now());
        if (calls.length < 3)
          throw new AppError('UPSTREAM', 'Cloudflare is unavailable right now. Please try again.');
        return 'ok';
      },
    });
    try {
      const job = await queue.enqueue({ kind: 'test-flaky', userId: user.id, target: '', data: {} });
      expect(await queue.waitFor(job.id, 15_000)).toMatchObject({
        state: 'succeeded',
        attempts: 3,
        result: 'ok',
      });
      // The kind's delay is a second: the first retry after it, the second after twice it.
      expect(calls[1]! - calls[0]!).toBeGreaterThanOrEqual(950);
      expect(calls[2]! - calls[1]!).toBeGreaterThanOrEqual(1_950);
    } finally {
      await queue.stop();
    }
  });

  it('survives a restart: a worker stopped mid-job gives it back and another finishes it', async () => {
    const runs: string[] = [];
    const first = await startedQueue({ 'test-steps': stepping(runs, 50) });
    const job = await first.enqueue({ kind: 'test-steps', userId: user.id, target: '', data: {} });
    while ((await first.jobs.find(job.id))!.progressDone < 3) await sleep(10);
    await first.stop();
    expect((await first.jobs.find(job.id))?.state).toBe('queued');
    const second = await startedQueue({ 'test-steps': stepping(runs, 50) });
    try {
      expect(await second.waitFor(job.id, 20_000)).toMatchObject({ state: 'succeeded', attempts: 2 });
      expect(runs.filter((id) => id === job.id)).toHaveLength(2);
    } finally {
      await second.stop();
    }
  });

  it('a worker that stops hands its job back at once: another takes it without the retry delay', async () => {
    const runs: string[] = [];
    // A retry delay far longer than the wait below: only a job handed back at once is taken in it.
    const slowRetries = { retry: { delaySeconds: 120 } };
    const first = await startedQueue({ 'test-steps': stepping(runs, 50) }, slowRetries);
    const job = await first.enqueue({ kind: 'test-steps', userId: user.id, target: '', data: {} });
    while ((await first.jobs.find(job.id))!.progressDone < 3) await sleep(10);
    await first.stop();
    const second = await startedQueue({ 'test-steps': stepping(runs, 5) }, slowRetries);
    try {
      expect(await second.waitFor(job.id, 20_000)).toMatchObject({ state: 'succeeded', attempts: 2 });
    } finally {
      await second.stop();
    }
  });

  it("gives a silent worker's job (its process killed) to another worker", async () => {
    const runs: string[] = [];
    // The first worker's heartbeat never comes in time: as a process that died mid-job.
    let release!: () => void;
    const hung = new Promise<void>((resolve) => (release = resolve));
    const dead = await startedQueue(
      {
        'test-hang': async ({ job }) => {
          runs.push(job.id);
          await hung;
        },
      },
      { heartbeatMs: 600_000, staleMs: 600_000, concurrency: 1 },
    );
    const job = await dead.enqueue({ kind: 'test-hang', userId: user.id, target: '', data: {} });
    while (runs.length === 0) await sleep(10);
    const alive = await startedQueue({ 'test-hang': async ({ job: j }) => void runs.push(j.id) });
    try {
      expect(await alive.waitFor(job.id, 20_000)).toMatchObject({ state: 'succeeded', attempts: 2 });
      // The first run ending late changes nothing: the row is the second run's.
      release();
      await dead.stop();
      expect(await alive.jobs.find(job.id)).toMatchObject({ state: 'succeeded', attempts: 2 });
    } finally {
      release();
      await dead.stop();
      await alive.stop();
    }
  });

  it("runs one job of a kind that takes its account's turn per account at once, across processes", async () => {
    const accounts = await ctx.db.query<{ id: number }>(
      `INSERT INTO cloudflare_accounts (user_id, account_name, account_id, token_encrypted, token_last4)
       SELECT $1, 'turn ' || n, 'turn-' || n, 'x', 'abcd' FROM generate_series(1, 2) AS n RETURNING id`,
      [user.id],
    );
    const [accountA, accountB] = accounts as [{ id: number }, { id: number }];
    const running = new Map<number, number>();
    let overlapped = false;
    const runs: { account: number | null; at: number }[] = [];
    const turn: JobHandler = async ({ job }) => {
      const account = job.accountId!;
      running.set(account, (running.get(account) ?? 0) + 1);
      if (running.get(account)! > 1) overlapped = true;
      runs.push({ account, at: Date.now() });
      await sleep(150);
      running.set(account, running.get(account)! - 1);
    };
    const one = await startedQueue({ 'test-turn': turn }, { concurrency: 3, accountTurn: true });
    const two = await startedQueue({ 'test-turn': turn }, { concurrency: 3, accountTurn: true });
    try {
      const sent = await Promise.all(
        [accountA, accountA, accountA, accountB].map((account, i) =>
          (i % 2 ? one : two).enqueue({
            kind: 'test-turn',
            userId: user.id,
            accountId: account.id,
            target: String(i),
            data: {},
          }),
        ),
      );
      for (const job of sent) expect((await one.waitFor(job.id, 20_000))?.state).toBe('succeeded');
      expect(overlapped).toBe(false);
      // The other account's job did not wait for the first account's turn.
      const firstOfB = runs.find((run) => run.account === accountB.id)!.at;
      const lastOfA = Math.max(...runs.filter((run) => run.account === accountA.id).map((run) => run.at));
      expect(firstOfB).toBeLessThan(lastOfA);
    } finally {
      await one.stop();
      await two.stop();
    }
  });

  it('a job asked for again while the same one waits joins it, across processes; a running one only when asked', async () => {
    const [account] = await ctx.db.query<{ id: number }>(
      `INSERT INTO cloudflare_accounts (user_id, account_name, account_id, token_encrypted, token_last4)
       VALUES ($1, 'join', 'join-1', 'x', 'abcd') RETURNING id`,
      [user.id],
    );
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const runs: unknown[] = [];
    // One job of the account at a time: the first holds the turn, so the others stay queued.
    const held: JobHandler = async ({ job }) => {
      runs.push(job.data);
      await released;
    };
    const one = await startedQueue({ 'test-join': held }, { concurrency: 2, accountTurn: true });
    const two = await startedQueue({ 'test-join': held }, { concurrency: 2, accountTurn: true });
    const ask = (queue: JobQueue, list: string, join?: 'queued' | 'queued-or-running') =>
      queue.enqueue(
        { kind: 'test-join', userId: user.id, accountId: account!.id, target: list, data: { list } },
        join,
      );
    try {
      const first = await ask(one, 'a');
      while ((await one.jobs.find(first.id))!.state !== 'running') await sleep(10);
      // Ten asks at once from two processes for list b: one job.
      const asked = await Promise.all(
        Array.from({ length: 10 }, (_, i) => ask(i % 2 ? one : two, 'b', 'queued')),
      );
      expect(new Set(asked.map((job) => job.id)).size).toBe(1);
      // Another list's is its own job; without `join`, a second job.
      expect((await ask(two, 'c', 'queued')).id).not.toBe(asked[0]!.id);
      expect((await ask(two, 'b')).id).not.toBe(asked[0]!.id);
      // List a's job is running: a "queued" ask queues another, a "queued-or-running" one follows it.
      expect((await ask(one, 'a', 'queued-or-running')).id).toBe(first.id);
      const again = await ask(one, 'a', 'queued');
      expect(again.id).not.toBe(first.id);
      release();
      for (const job of [first, asked[0]!, again])
        expect((await one.waitFor(job.id, 20_000))?.state).toBe('succeeded');
      await vi.waitFor(() => expect(runs).toHaveLength(5), { timeout: 20_000 });
      expect(runs.map((data) => (data as { list: string }).list).sort()).toEqual(['a', 'a', 'b', 'b', 'c']);
    } finally {
      release();
      await one.stop();
      await two.stop();
    }
  });

  it('two workers never take the same job', async () => {
    const runs: string[] = [];
    const kind: JobHandler = async ({ job }) => {
      runs.push(job.id);
      await sleep(5);
    };
    const one = await startedQueue({ 'test-once': kind }, { concurrency: 3 });
    const two = await startedQueue({ 'test-once': kind }, { concurrency: 3 });
    try {
      const jobs = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          (i % 2 ? one : two).enqueue({ kind: 'test-once', userId: user.id, target: String(i), data: {} }),
        ),
      );
      for (const job of jobs) expect((await one.waitFor(job.id, 20_000))?.state).toBe('succeeded');
      expect(runs.sort()).toEqual(jobs.map((job) => job.id).sort());
    } finally {
      await one.stop();
      await two.stop();
    }
  });

  it('cancels a queued job and a running one', async () => {
    const runs: string[] = [];
    const queue = await startedQueue({ 'test-steps': stepping(runs, 500) }, { concurrency: 1 });
    try {
      const running = await queue.enqueue({ kind: 'test-steps', userId: user.id, target: '', data: {} });
      const waiting = await queue.enqueue({ kind: 'test-steps', userId: user.id, target: '', data: {} });
      while ((await queue.jobs.find(running.id))!.state !== 'running') await sleep(10);
      await queue.cancel(waiting.id);
      expect((await queue.jobs.find(waiting.id))?.state).toBe('cancelled');
      await queue.cancel(running.id);
      expect((await queue.waitFor(running.id, 10_000))?.state).toBe('cancelled');
      expect(runs).not.toContain(waiting.id);
    } finally {
      await queue.stop();
    }
  });
});
