import type { BanList, BanListItemsPage } from '@guardian/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, createAppDeps } from '../../app';
import { createCloudflareTestContext, type CloudflareTestContext } from '../../test/cloudflare-context';
import type { TestUser } from '../../test/context';
import { secondProcess } from '../../test/second-process';

type Account = Awaited<ReturnType<CloudflareTestContext['addAccount']>>;

/**
 * Cloudflare allows one pending list bulk operation per account and answers 429 to a list item write
 * sent meanwhile; the sandbox does the same (and is slowed here so that every operation stays pending
 * for a while). Every write below succeeding proves that no two of one account ever overlapped.
 */
describe('list writes of one Cloudflare account', () => {
  let ctx: CloudflareTestContext;
  let alice: TestUser;
  let account: Account;

  beforeAll(async () => {
    ctx = await createCloudflareTestContext({ sandbox: { operationDelayMs: 30 } });
    alice = await ctx.createUser();
    account = await ctx.addAccount(alice, { name: 'Busy Co' });
  });
  afterAll(() => ctx.close());
  beforeEach(() => ctx.sandbox.control.resetCalls());

  const call = (app: FastifyInstance, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    app.inject({ method, url: `/api/cloudflare/banlists${url}`, headers: alice.headers, payload });

  let listCounter = 0;
  /** A list at Cloudflare with `items`, pulled into the console and synced. */
  async function syncedList(items: Record<string, unknown>[] = []) {
    listCounter += 1;
    const list = ctx.sandbox.control.addList(account.account_id, { name: `busy_${listCounter}`, kind: 'ip' });
    if (items.length > 0) ctx.sandbox.control.seedListItems(account.account_id, list.id, items);
    expect((await call(ctx.app, 'POST', '/update')).statusCode).toBe(200);
    const sync = await call(ctx.app, 'POST', `/${list.id}/sync`);
    expect(sync.statusCode).toBe(200);
    return { listId: list.id, ref: sync.json<BanList>().id };
  }

  const ipsAtCloudflare = (listId: string) =>
    ctx.sandbox.control
      .getListItems(account.account_id, listId)
      .map((item) => item.ip as string)
      .sort();
  const refusedWrites = () =>
    ctx.sandbox.control
      .callLog({ path: /\/items$/ })
      .filter((entry) => entry.method !== 'GET' && entry.status === 429).length;

  it('adds to two lists and deletes from one at once: all succeed, one after the other at Cloudflare', async () => {
    const first = await syncedList();
    const second = await syncedList([{ ip: '192.0.2.50', comment: 'old' }]);
    const [old] = (await call(ctx.app, 'GET', `/${second.listId}/items`)).json<BanListItemsPage>().items;

    const answers = await Promise.all([
      call(ctx.app, 'POST', `/${first.listId}/items`, { ip: '192.0.2.1', comment: 'one' }),
      call(ctx.app, 'POST', `/${second.listId}/items`, { ip: '192.0.2.2', comment: 'two' }),
      call(ctx.app, 'DELETE', `/${second.listId}/items/${old!.id}`),
      call(ctx.app, 'POST', `/${first.listId}/items`, { ip: '192.0.2.3', comment: 'three' }),
    ]);

    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 204, 201]);
    expect(ipsAtCloudflare(first.listId)).toEqual(['192.0.2.1', '192.0.2.3']);
    expect(ipsAtCloudflare(second.listId)).toEqual(['192.0.2.2']);
    expect(refusedWrites()).toBe(0);
  });

  it('cleans every list while items are added to them: nothing is refused', async () => {
    const lists = [await syncedList([{ ip: '198.51.100.1' }]), await syncedList([{ ip: '198.51.100.2' }])];
    const [clean, added] = await Promise.all([
      call(ctx.app, 'POST', '/clean'),
      call(ctx.app, 'POST', `/${lists[1]!.listId}/items`, { ip: '198.51.100.3', comment: 'meanwhile' }),
    ]);
    expect(clean.statusCode).toBe(200);
    expect(added.statusCode).toBe(201);
    expect(refusedWrites()).toBe(0);
  });

  it('answers 409 after a bounded wait while another process holds the account, and writes nothing', async () => {
    const { listId } = await syncedList();
    // The longest a person waits for the account's turn is the interactive Cloudflare deadline.
    const config = { ...ctx.config, cloudflare: { ...ctx.config.cloudflare, deadlineMs: 1_500 } };
    const impatient = await buildApp(config, createAppDeps(config, ctx.db));
    await impatient.ready();
    // Another server process on this database is writing to the account (it renews its lease meanwhile).
    await ctx.db.query(
      `INSERT INTO leases (name, holder, expires_at) VALUES ($1, 'another process', now() + interval '1 minute')`,
      [`list-writes:${account.account_id}`],
    );
    try {
      const started = Date.now();
      const answer = await call(impatient, 'POST', `/${listId}/items`, {
        ip: '203.0.113.1',
        comment: 'late',
      });
      const waited = Date.now() - started;
      expect(answer.statusCode).toBe(409);
      expect(answer.json().message).toBe(
        'Another change to the lists of "Busy Co" is still running at Cloudflare. Please try again in a moment.',
      );
      // The 1.5 s deadline, not the minute the other process holds the account for.
      expect(waited).toBeGreaterThanOrEqual(1_400);
      expect(waited).toBeLessThan(20_000);
      expect(ipsAtCloudflare(listId)).toEqual([]);
    } finally {
      await ctx.db.query(`DELETE FROM leases WHERE holder = 'another process'`);
      await impatient.close();
    }
    // Once it is free, the write goes through.
    const later = await call(ctx.app, 'POST', `/${listId}/items`, { ip: '203.0.113.1', comment: 'later' });
    expect(later.statusCode).toBe(201);
  });

  it("takes over a crashed process's lapsed lease at once", async () => {
    const { listId } = await syncedList();
    await ctx.db.query(
      `INSERT INTO leases (name, holder, expires_at) VALUES ($1, 'crashed process', now() - interval '1 second')`,
      [`list-writes:${account.account_id}`],
    );
    const started = Date.now();
    const answer = await call(ctx.app, 'POST', `/${listId}/items`, { ip: '203.0.113.5', comment: 'x' });
    // A lapsed lease left in place would hold the write to the 30 s deadline, then refuse it with a 409.
    expect(answer.statusCode).toBe(201);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await ctx.db.query('SELECT name FROM leases')).toEqual([]);
  });

  it('releases the account when Cloudflare fails a write, so the next one goes through at once', async () => {
    const { listId } = await syncedList();
    ctx.sandbox.control.injectFault({ method: 'POST', path: /\/items$/, status: 503 });
    const failed = await call(ctx.app, 'POST', `/${listId}/items`, { ip: '203.0.113.9', comment: 'x' });
    ctx.sandbox.control.clearFaults();
    expect(failed.statusCode).toBe(502);
    // A lease left behind would hold the next write to the 30 s deadline.
    const started = Date.now();
    const next = await call(ctx.app, 'POST', `/${listId}/items`, { ip: '203.0.113.9', comment: 'x' });
    expect(next.statusCode).toBe(201);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await ctx.db.query(`SELECT name FROM leases`)).toEqual([]);
  });

  // Two server processes need a shared database server: PGlite is embedded in one process, and its data
  // folder is locked to that process, so this race exists (and is tested) on PostgreSQL only.
  it.skipIf(process.env.TEST_DB !== 'postgres')(
    'two server processes on one PostgreSQL database never write to one account at once (PostgreSQL only)',
    async () => {
      const other = await secondProcess(ctx);
      try {
        const lists = [await syncedList(), await syncedList(), await syncedList()];
        const writes = lists.flatMap(({ listId }, index) =>
          [1, 2, 3].flatMap((n) => [
            call(ctx.app, 'POST', `/${listId}/items`, { ip: `10.${index}.${n}.1`, comment: 'here' }),
            call(other.app, 'POST', `/${listId}/items`, { ip: `10.${index}.${n}.2`, comment: 'there' }),
          ]),
        );
        const answers = await Promise.all(writes);
        expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 201));
        for (const { listId } of lists) expect(ipsAtCloudflare(listId)).toHaveLength(6);
        expect(refusedWrites()).toBe(0);
      } finally {
        await other.close();
      }
    },
  );
});
