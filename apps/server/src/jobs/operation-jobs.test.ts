import type { BanList, Job, SyncZonesResponse } from '@guardian/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, createAppDeps } from '../app';
import { createDb, type Db } from '../db';
import { createCloudflareTestContext, type CloudflareTestContext } from '../test/cloudflare-context';
import type { TestUser } from '../test/context';

/**
 * "Update", "Clean All" and zone sync ("Update List") as jobs: a short one answers as before, a long
 * one 202 with its job (progress, cancel, the error in words); list writes of one account never
 * overlap at Cloudflare, whoever runs them.
 */
describe('Update, Clean All and Update List as jobs', () => {
  let ctx: CloudflareTestContext;
  let alice: TestUser;
  let account: Awaited<ReturnType<CloudflareTestContext['addAccount']>>;
  /** A second app on the same database whose calls wait only 300 ms for their jobs. */
  let impatient: FastifyInstance;

  beforeAll(async () => {
    ctx = await createCloudflareTestContext({ sandbox: { operationDelayMs: 20 } });
    alice = await ctx.createUser();
    account = await ctx.addAccount(alice, { name: 'Jobs Co', plan: 'enterprise' });
    impatient = await ctx.impatientApp(300);
  });
  afterAll(() => ctx.close());
  afterEach(() => ctx.sandbox.control.clearFaults());

  const post = (url: string, app: FastifyInstance = ctx.app, user = alice) =>
    app.inject({ method: 'POST', url, headers: user.headers });
  /** Started on the app that answers 202 after 300 ms (the sandbox's latency makes a job long at will). */
  const postLong = (url: string) => post(url, impatient);
  /**
   * Cancels on both apps: the process running a job stops it at once when asked itself; another one
   * passes the request on through the job's row, seen at the next heartbeat (2 s), longer than these
   * jobs take.
   */
  const cancel = async (id: string) => {
    const answers = [await post(`/api/jobs/${id}/cancel`), await post(`/api/jobs/${id}/cancel`, impatient)];
    return answers[0]!;
  };
  const sent = (method: string) =>
    ctx.sandbox.control.callLog({ path: /\/items$/ }).filter((entry) => entry.method === method).length;
  const jobOf = async (id: string, user = alice) =>
    (await ctx.app.inject({ method: 'GET', url: `/api/jobs/${id}`, headers: user.headers })).json<Job>();
  async function ended(id: string): Promise<Job> {
    for (let i = 0; i < 400; i++) {
      const job = await jobOf(id);
      if (['succeeded', 'failed', 'cancelled'].includes(job.state)) return job;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`job ${id} did not end`);
  }

  /** The call's work done, whether it answered at once or with its job (setup, not what is tested). */
  async function finished(url: string): Promise<void> {
    const answer = await post(url);
    if (answer.statusCode === 202) expect((await ended(answer.json<Job>().id)).state).toBe('succeeded');
    else expect(answer.statusCode).toBe(200);
  }

  let counter = 0;
  /** A list at Cloudflare holding `items` addresses, pulled into the console and synced. */
  async function list(items: number): Promise<string> {
    counter += 1;
    const created = ctx.sandbox.control.addList(account.account_id, { name: `jobs_${counter}`, kind: 'ip' });
    const seed = Array.from({ length: items }, (_, i) => ({ ip: `10.${counter}.${i >> 8}.${i & 255}` }));
    if (items > 0) ctx.sandbox.control.seedListItems(account.account_id, created.id, seed);
    await finished('/api/cloudflare/banlists/update');
    await finished(`/api/cloudflare/banlists/${created.id}/sync`);
    return created.id;
  }
  const itemsAt = (listId: string) => ctx.sandbox.control.getListItems(account.account_id, listId).length;
  const refusedWrites = () =>
    ctx.sandbox.control
      .callLog({ path: /\/items$/ })
      .filter((entry) => entry.method !== 'GET' && entry.status === 429).length;

  describe('Update', () => {
    it('answers the lists when it ends within the wait, as before', async () => {
      const listId = await list(0);
      const answer = await post('/api/cloudflare/banlists/update');
      expect(answer.statusCode).toBe(200);
      expect(answer.json<BanList[]>().map((l) => l.list_id)).toContain(listId);
    });

    it('answers 202 with its job when Cloudflare is slow; the job ends with the lists, accounts read of all', async () => {
      ctx.sandbox.control.injectFault({ method: 'GET', path: /\/rules\/lists$/, latencyMs: 800, times: 1 });
      const answer = await postLong('/api/cloudflare/banlists/update');
      expect(answer.statusCode).toBe(202);
      const job = answer.json<Job>();
      expect(job).toMatchObject({ kind: 'ban-lists-update', target: 'All lists', started_by: alice.email });
      const done = await ended(job.id);
      expect(done).toMatchObject({ state: 'succeeded', done: 1, total: 1, error: null });
      expect(Array.isArray(done.result)).toBe(true);
    });

    it('a failure is answered with the same code and words as before', async () => {
      ctx.sandbox.control.injectFault({ method: 'GET', path: /\/rules\/lists$/, status: 503 });
      const answer = await post('/api/cloudflare/banlists/update');
      expect(answer.statusCode).toBe(502);
      expect(answer.json().message).toMatch(/^Could not read the lists of "Jobs Co": /);
    });
  });

  describe("a list's sync", () => {
    it('answers 202 when slow with a job that names its list by id; jobs about all lists name none', async () => {
      const listId = await list(3);
      ctx.sandbox.control.injectFault({ method: 'GET', path: /\/items$/, latencyMs: 800, times: 1 });
      const answer = await postLong(`/api/cloudflare/banlists/${listId}/sync`);
      expect(answer.statusCode).toBe(202);
      expect(answer.json<Job>()).toMatchObject({ kind: 'ban-list-sync', list_id: listId });
      expect(await ended(answer.json<Job>().id)).toMatchObject({ state: 'succeeded', list_id: listId });
      ctx.sandbox.control.injectFault({ method: 'GET', path: /\/rules\/lists$/, latencyMs: 800, times: 1 });
      const update = await postLong('/api/cloudflare/banlists/update');
      expect(update.json<Job>()).toMatchObject({ kind: 'ban-lists-update', list_id: null });
      await ended(update.json<Job>().id);
    });
  });

  describe('Clean All', () => {
    it('answers the emptied lists when it ends within the wait', async () => {
      const listId = await list(3);
      const answer = await post('/api/cloudflare/banlists/clean');
      expect(answer.statusCode).toBe(200);
      expect(answer.json<BanList[]>().find((l) => l.list_id === listId)?.items).toBe(0);
      expect(itemsAt(listId)).toBe(0);
    });

    it('is cancelled between lists: the list being emptied finishes, the rest keep their items on both sides', async () => {
      const ids = [await list(2), await list(2), await list(2)];
      // The first list's write is slow: the call answers 202, and the cancel arrives during it.
      ctx.sandbox.control.injectFault({ method: 'PUT', path: /\/items$/, latencyMs: 1_000, times: 1 });
      const writesBefore = sent('PUT');
      const answer = await postLong('/api/cloudflare/banlists/clean');
      expect(answer.statusCode).toBe(202);
      const job = answer.json<Job>();
      expect(job.kind).toBe('ban-lists-clean');
      // Cancelled while the first list's write is at Cloudflare.
      for (let i = 0; i < 500 && sent('PUT') === writesBefore; i++) {
        // A job that ended without writing shows why below instead of a test time-out.
        if ((await jobOf(job.id)).finished_at) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect((await cancel(job.id)).statusCode).toBe(200);
      const done = await ended(job.id);
      expect(done.state).toBe('cancelled');
      // Earlier tests' lists come first: the cancel lands before the last of these lists is emptied.
      expect(done.done).toBeLessThan(done.total!);
      expect(ids.filter((id) => itemsAt(id) === 2).length).toBeGreaterThan(0);
      // Each list is whole or empty, the same at Cloudflare and in the mirror.
      const lists = (
        await ctx.app.inject({ method: 'GET', url: '/api/cloudflare/banlists', headers: alice.headers })
      ).json<BanList[]>();
      for (const id of ids) {
        expect([0, 2]).toContain(itemsAt(id));
        expect(lists.find((l) => l.list_id === id)?.items).toBe(itemsAt(id));
      }
    });

    it('a failure ends the job with the error in words', async () => {
      const listId = await list(1);
      ctx.sandbox.control.injectFault({ method: 'PUT', path: /\/items$/, latencyMs: 500, status: 503 });
      const answer = await postLong('/api/cloudflare/banlists/clean');
      expect(answer.statusCode).toBe(202);
      const done = await ended(answer.json<Job>().id);
      expect(done.state).toBe('failed');
      expect(done.error).toMatch(/^Could not empty "jobs_\d+": /);
      expect(done.error).not.toMatch(/Error|stack|at /);
      ctx.sandbox.control.clearFaults();
      expect(itemsAt(listId)).toBe(1);
    });

    it('two Clean All jobs at once, with item adds meanwhile: no list write of the account overlaps at Cloudflare', async () => {
      const ids = [await list(5), await list(5), await list(5)];
      ctx.sandbox.control.resetCalls();
      const [one, two, added] = await Promise.all([
        postLong('/api/cloudflare/banlists/clean'),
        postLong('/api/cloudflare/banlists/clean'),
        ctx.app.inject({
          method: 'POST',
          url: `/api/cloudflare/banlists/${ids[1]}/items`,
          headers: alice.headers,
          payload: { ip: '192.0.2.77', comment: 'meanwhile' },
        }),
      ]);
      expect(added.statusCode).toBe(201);
      for (const answer of [one, two])
        if (answer.statusCode === 202) expect((await ended(answer.json<Job>().id)).state).toBe('succeeded');
        else expect(answer.statusCode).toBe(200);
      expect(refusedWrites()).toBe(0);
      // The add takes the account's turn before, between or after the cleans: its list ends empty, or
      // holding the added item alone, at Cloudflare and in the mirror alike.
      expect([ids[0]!, ids[2]!].map(itemsAt)).toEqual([0, 0]);
      const left = ctx.sandbox.control.getListItems(account.account_id, ids[1]!).map((item) => item.ip);
      expect([[], ['192.0.2.77']]).toContainEqual(left);
      const page = await ctx.app.inject({
        method: 'GET',
        url: `/api/cloudflare/banlists/${ids[1]}/items`,
        headers: alice.headers,
      });
      expect(page.json<{ items: { ip: string }[] }>().items.map((item) => item.ip)).toEqual(left);
    });
  });

  describe('Update List (zones)', () => {
    it('answers as before when it ends within the wait', async () => {
      ctx.sandbox.control.addZone(account.account_id, `quick-${Date.now()}.example`);
      const answer = await post('/api/cloudflare/zones/sync');
      expect(answer.statusCode).toBe(200);
      expect(answer.json<SyncZonesResponse>().zones).toBe(
        ctx.sandbox.control.getZones(account.account_id).length,
      );
    });

    it('answers 202 when slow; progress counts zones pages; the job ends with the count', async () => {
      for (let i = ctx.sandbox.control.getZones(account.account_id).length; i < 120; i++)
        ctx.sandbox.control.addZone(account.account_id, `zone-${i}.example`);
      ctx.sandbox.control.injectFault({ method: 'GET', path: /^\/zones$/, latencyMs: 250 });
      const answer = await postLong('/api/cloudflare/zones/sync');
      expect(answer.statusCode).toBe(202);
      const job = answer.json<Job>();
      expect(job).toMatchObject({ kind: 'zones-sync', target: 'All zones' });
      const done = await ended(job.id);
      expect(done).toMatchObject({ state: 'succeeded', done: 3, total: 3, result: { zones: 120 } });
    });

    it('is cancelled between pages, and a failure ends the job in words', async () => {
      ctx.sandbox.control.injectFault({ method: 'GET', path: /^\/zones$/, latencyMs: 400 });
      const started = await postLong('/api/cloudflare/zones/sync');
      expect(started.statusCode).toBe(202);
      await cancel(started.json<Job>().id);
      const cancelled = await ended(started.json<Job>().id);
      expect(cancelled.state).toBe('cancelled');
      expect(cancelled.done).toBeLessThan(3);

      ctx.sandbox.control.clearFaults();
      ctx.sandbox.control.injectFault({ method: 'GET', path: /^\/zones$/, latencyMs: 400, status: 503 });
      const failing = await postLong('/api/cloudflare/zones/sync');
      expect(failing.statusCode).toBe(202);
      const failed = await ended(failing.json<Job>().id);
      expect(failed.state).toBe('failed');
      expect(failed.error).toMatch(/^Could not update the zones of "Jobs Co": /);
    });
  });

  // Two server processes need a shared database server: PGlite is embedded in one process.
  it.skipIf(process.env.TEST_DB !== 'postgres')(
    'Clean All started on two server processes at once: no list write of the account overlaps (PostgreSQL only)',
    async () => {
      const [current] = await ctx.db.query<{ schema: string }>('SELECT current_schema() AS schema');
      const otherDb: Db = await createDb(ctx.config, { schema: current!.schema });
      const other = await buildApp(ctx.config, createAppDeps(ctx.config, otherDb));
      await other.ready();
      try {
        const ids = [await list(4), await list(4), await list(4), await list(4)];
        ctx.sandbox.control.resetCalls();
        const answers = await Promise.all([
          post('/api/cloudflare/banlists/clean'),
          post('/api/cloudflare/banlists/clean', other),
        ]);
        for (const answer of answers)
          if (answer.statusCode === 202) expect((await ended(answer.json<Job>().id)).state).toBe('succeeded');
          else expect(answer.statusCode).toBe(200);
        expect(refusedWrites()).toBe(0);
        expect(ids.map(itemsAt)).toEqual([0, 0, 0, 0]);
      } finally {
        await other.close();
        await otherDb.close();
      }
    },
  );
});
