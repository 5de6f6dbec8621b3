import type {
  AuditEvent,
  BanList,
  BanListItem,
  BanListItemHistory,
  BanListItemsPage,
  CreatedApiKey,
} from '@guardian/contract';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAppDeps } from '../../app';
import { createBanListParts } from '../../services';
import { createCloudflareTestContext, type CloudflareTestContext } from '../../test/cloudflare-context';
import type { TestUser } from '../../test/context';
import { GUARDIAN_ACTOR } from '../ban-list-mirror';
import { ItemExpiry } from './item-expiry';
import { countingDb } from '../../test/counting-db';

type Account = Awaited<ReturnType<CloudflareTestContext['addAccount']>>;

/** Provenance, history and expiry of ban list items (issue 15). */
describe('ban list item provenance and expiry', () => {
  let ctx: CloudflareTestContext;
  let alice: TestUser;
  let bob: TestUser;
  let account: Account;

  beforeAll(async () => {
    ctx = await createCloudflareTestContext();
    alice = await ctx.createUser();
    bob = await ctx.createUser();
    account = await ctx.addAccount(alice, { name: 'Expiry Co' });
  });
  afterAll(() => ctx.close());
  afterEach(() => ctx.sandbox.control.clearFaults());

  const call = (user: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    ctx.app.inject({ method, url: `/api/cloudflare/banlists${url}`, headers: user.headers, payload });
  const itemsPage = async (listId: string, query = '') => {
    const response = await call(alice, 'GET', `/${listId}/items${query ? `?${query}` : ''}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<BanListItemsPage>();
  };
  const history = async (listId: string, id: number, user = alice) => {
    const response = await call(user, 'GET', `/${listId}/items/${id}/history`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<BanListItemHistory>();
  };

  let listCounter = 0;
  async function syncedList(items: Record<string, unknown>[], owner = account) {
    listCounter += 1;
    const list = ctx.sandbox.control.addList(owner.account_id, { name: `expiry_${listCounter}`, kind: 'ip' });
    if (items.length > 0) ctx.sandbox.control.seedListItems(owner.account_id, list.id, items);
    expect((await call(alice, 'POST', '/update')).statusCode).toBe(200);
    const sync = await call(alice, 'POST', `/${list.id}/sync`);
    expect(sync.statusCode, sync.body).toBe(200);
    return { listId: list.id, ref: sync.json<BanList>().id };
  }
  const ips = (count: number, from = 0) =>
    Array.from({ length: count }, (_, i) => ({
      ip: `10.${from}.${i >> 8}.${i & 255}`,
      comment: `item ${i}`,
    }));
  const cloudflareIds = (listId: string) =>
    ctx.sandbox.control
      .getListItems(account.account_id, listId)
      .map((item) => item.id as string)
      .sort();
  /** The mirror's Cloudflare ids and the list's count: they must agree. */
  async function mirrorIds(ref: number) {
    const rows = await ctx.db.query<{ item_id: string }>(
      'SELECT item_id FROM ban_list_items WHERE ban_list_ref = $1 ORDER BY item_id',
      [ref],
    );
    const [list] = await ctx.db.query<{ items_count: number }>(
      'SELECT items_count FROM ban_lists WHERE id = $1',
      [ref],
    );
    expect(list!.items_count).toBe(rows.length);
    return rows.map((row) => row.item_id);
  }
  const add = async (listId: string, ip: string, extra: object = {}) => {
    const response = await call(alice, 'POST', `/${listId}/items`, { ip, comment: 'why', ...extra });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<BanListItem>();
  };

  describe('provenance', () => {
    it('records who added an item in the console, when it expires, and its history', async () => {
      const { listId } = await syncedList([]);
      const before = Date.now();
      const item = await add(listId, '198.51.100.1', { expires: '1d' });
      expect(item).toMatchObject({ added_via: 'console', added_by: alice.email, comment: 'why' });
      const expiresAt = Date.parse(item.expires_at!);
      expect(expiresAt).toBeGreaterThanOrEqual(before + 86_400_000);
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + 86_400_000);
      expect((await itemsPage(listId)).items[0]).toEqual(item);
      const { value, events } = await history(listId, item.id);
      expect(value).toBe('198.51.100.1');
      expect(events).toEqual([
        {
          at: expect.any(String),
          event: 'added',
          actor: alice.email,
          added_via: 'console',
          expires_at: item.expires_at,
        },
      ]);
    });

    it('records an API key’s add as the API, under the key’s name', async () => {
      const { listId } = await syncedList([]);
      const created = await ctx.app.inject({
        method: 'POST',
        url: '/api/me/api-keys',
        headers: alice.headers,
        payload: { name: 'fail2ban', access: 'ban' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const { key } = created.json<CreatedApiKey>();
      const response = await ctx.app.inject({
        method: 'POST',
        url: `/api/cloudflare/banlists/${listId}/items`,
        headers: { authorization: `Bearer ${key}` },
        payload: { ip: '198.51.100.2', comment: 'from a script', expires: 'never' },
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json<BanListItem>()).toMatchObject({
        added_via: 'api',
        added_by: `${alice.email} (API key "fail2ban")`,
        expires_at: null,
      });
    });

    it('shows an item found at Cloudflare as added there, and keeps Guardian’s provenance through a full sync', async () => {
      const { listId, ref } = await syncedList(ips(3));
      expect((await itemsPage(listId)).items.map((item) => [item.added_via, item.added_by])).toEqual([
        ['cloudflare', ''],
        ['cloudflare', ''],
        ['cloudflare', ''],
      ]);
      const ours = await add(listId, '203.0.113.9', { expires: '7d' });
      // Someone adds an item at Cloudflare: the next sync loads the list anew (new ids).
      ctx.sandbox.control.seedListItems(account.account_id, listId, [
        { ip: '10.99.0.1', comment: 'elsewhere' },
      ]);
      expect((await call(alice, 'POST', `/${listId}/sync`)).statusCode).toBe(200);
      const after = (await itemsPage(listId, 'per_page=10')).items;
      expect(after).toHaveLength(5);
      const kept = after.find((item) => item.ip === '203.0.113.9')!;
      expect(kept.id).not.toBe(ours.id);
      expect(kept).toMatchObject({
        added_via: 'console',
        added_by: alice.email,
        expires_at: ours.expires_at,
      });
      expect(after.find((item) => item.ip === '10.99.0.1')).toMatchObject({
        added_via: 'cloudflare',
        added_by: '',
      });
      // The history follows the item by Cloudflare's id across the renumbering.
      expect((await history(listId, kept.id)).events.map((event) => event.event)).toEqual(['added']);
      expect(await mirrorIds(ref)).toEqual(cloudflareIds(listId));
    });

    it('sorts by Expires and Added by, and finds items by who added them', async () => {
      const { listId } = await syncedList(ips(2));
      const week = await add(listId, '192.0.2.7', { expires: '7d' });
      const hour = await add(listId, '192.0.2.1', { expires: '1h' });
      const expires = (await itemsPage(listId, 'sort=expires_at&order=asc')).items.map((item) => item.ip);
      // Soonest first; items that never expire last.
      expect(expires.slice(0, 2)).toEqual([hour.ip, week.ip]);
      const desc = (await itemsPage(listId, 'sort=expires_at&order=desc')).items.map((item) => item.ip);
      expect(desc.slice(-2)).toEqual([week.ip, hour.ip]);
      const addedBy = (await itemsPage(listId, 'sort=added_by&order=desc')).items.map(
        (item) => item.added_by,
      );
      expect(addedBy).toEqual([alice.email, alice.email, '', '']);
      const prefix = alice.email.slice(0, 6).toUpperCase();
      const found = await itemsPage(listId, `search=${encodeURIComponent(prefix)}`);
      expect(found.items.map((item) => item.ip).sort()).toEqual([hour.ip, week.ip].sort());
    });
  });

  describe('changing an item’s expiry', () => {
    it('sets, records and clears it; refuses a past date and a made-up choice', async () => {
      const { listId } = await syncedList(ips(1));
      const [item] = (await itemsPage(listId)).items;
      const at = new Date(Date.now() + 3 * 86_400_000).toISOString();
      const changed = await call(alice, 'PUT', `/${listId}/items/${item!.id}/expiry`, { expires: at });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json<BanListItem>().expires_at).toBe(at);
      expect((await itemsPage(listId)).items[0]!.expires_at).toBe(at);
      const cleared = await call(alice, 'PUT', `/${listId}/items/${item!.id}/expiry`, { expires: 'never' });
      expect(cleared.json<BanListItem>().expires_at).toBeNull();
      const { events } = await history(listId, item!.id);
      expect(events.map((event) => [event.event, event.actor, event.expires_at])).toEqual([
        ['expiry_changed', alice.email, at],
        ['expiry_changed', alice.email, null],
      ]);

      const past = await call(alice, 'PUT', `/${listId}/items/${item!.id}/expiry`, {
        expires: new Date(Date.now() - 60_000).toISOString(),
      });
      expect(past.statusCode).toBe(400);
      expect(past.body).toContain('The expiry date must be in the future.');
      for (const expires of ['2h', '', 'tomorrow', 5, null]) {
        expect(
          (await call(alice, 'PUT', `/${listId}/items/${item!.id}/expiry`, { expires })).statusCode,
        ).toBe(400);
      }
      const addPast = await call(alice, 'POST', `/${listId}/items`, {
        ip: '192.0.2.99',
        comment: 'x',
        expires: '2000-01-01T00:00:00Z',
      });
      expect(addPast.statusCode).toBe(400);
    });

    it('keeps another person’s items, and their history, out of reach', async () => {
      const { listId } = await syncedList(ips(1));
      const [item] = (await itemsPage(listId)).items;
      expect((await call(bob, 'GET', `/${listId}/items/${item!.id}/history`)).statusCode).toBe(404);
      const refused = await call(bob, 'PUT', `/${listId}/items/${item!.id}/expiry`, { expires: '1h' });
      expect(refused.statusCode).toBe(404);
      expect((await itemsPage(listId)).items[0]!.expires_at).toBeNull();
      expect((await call(alice, 'GET', `/${listId}/items/987654/history`)).statusCode).toBe(404);
    });

    it('records a removal in the history', async () => {
      const { listId, ref } = await syncedList([]);
      const item = await add(listId, '192.0.2.50');
      expect((await call(alice, 'DELETE', `/${listId}/items/${item.id}`)).statusCode).toBe(204);
      const rows = await ctx.db.query<{ event: string; actor: string }>(
        'SELECT event, actor FROM ban_list_item_history WHERE ban_list_ref = $1 ORDER BY id',
        [ref],
      );
      expect(rows).toEqual([
        { event: 'added', actor: alice.email },
        { event: 'removed', actor: alice.email },
      ]);
    });
  });

  describe('removal of expired items', () => {
    /** The expiry job's work, run here directly with a small batch (the app's own runs every minute). */
    const expiry = (batchSize: number) => {
      const parts = createBanListParts(ctx.config, createAppDeps(ctx.config, ctx.db));
      return new ItemExpiry(parts, undefined as never, 60_000, () => {}, batchSize);
    };
    const makeDue = (ref: number, count: number) =>
      ctx.db.query(
        `UPDATE ban_list_items SET expires_at = now() - interval '1 minute'
         WHERE ban_list_ref = $1 AND id IN (SELECT id FROM ban_list_items WHERE ban_list_ref = $1 ORDER BY id LIMIT $2)`,
        [ref, count],
      );
    const deleteCalls = () => ctx.sandbox.control.callCount({ method: 'DELETE', path: /\/items$/ });

    it('deletes due items at Cloudflare in batches of many ids, then here, with history and audit trail', async () => {
      const { listId, ref } = await syncedList(ips(260));
      await makeDue(ref, 250);
      const before = deleteCalls();
      const removed = await expiry(100).expireAccount(account.id);
      expect(removed).toBe(250);
      // 250 ids in ceil(250 / 100) = 3 DELETEs.
      expect(deleteCalls() - before).toBe(3);
      expect(cloudflareIds(listId)).toHaveLength(10);
      expect(await mirrorIds(ref)).toEqual(cloudflareIds(listId));
      const expired = await ctx.db.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM ban_list_item_history WHERE ban_list_ref = $1 AND event = 'expired' AND actor = $2 AND user_id IS NULL`,
        [ref, GUARDIAN_ACTOR],
      );
      expect(expired[0]!.count).toBe(250);
      const trail = await ctx.app.inject({
        method: 'GET',
        url: '/api/audit?action=banListItems.expire',
        headers: alice.headers,
      });
      expect(trail.statusCode, trail.body).toBe(200);
      const events = trail
        .json<{ events: AuditEvent[] }>()
        .events.filter((event) => event.target.list_id === listId);
      expect(events).toHaveLength(3);
      expect(events.every((event) => event.actor === GUARDIAN_ACTOR && event.outcome === 'success')).toBe(
        true,
      );
      expect(events.map((event) => event.target.items).sort()).toEqual([100, 100, 50]);
      // Nothing left to do: no call at all.
      const calls = deleteCalls();
      expect(await expiry(100).expireAccount(account.id)).toBe(0);
      expect(deleteCalls()).toBe(calls);
    });

    it('leaves the mirror and Cloudflare alike when Cloudflare fails in the middle, and finishes later', async () => {
      const { listId, ref } = await syncedList(ips(300, 1));
      await makeDue(ref, 300);
      const run = expiry(100);
      let faulted = false;
      await expect(
        run.expireAccount(account.id, {
          signal: new AbortController().signal,
          progress: (done) => {
            // After the first batch, Cloudflare starts failing.
            if (done === 100 && !faulted) {
              faulted = true;
              ctx.sandbox.control.injectFault({ method: 'DELETE', path: /\/items$/, status: 500 });
            }
          },
        }),
      ).rejects.toThrow();
      expect(faulted).toBe(true);
      expect(cloudflareIds(listId)).toHaveLength(200);
      expect(await mirrorIds(ref)).toEqual(cloudflareIds(listId));
      const failed = await ctx.db.query<{ outcome: string }>(
        `SELECT outcome FROM audit_events WHERE action = 'banListItems.expire' AND target->>'list_id' = $1 ORDER BY id`,
        [listId],
      );
      expect(failed.map((row) => row.outcome)).toEqual(['success', 'failed']);
      ctx.sandbox.control.clearFaults();
      expect(await run.expireAccount(account.id)).toBe(200);
      expect(cloudflareIds(listId)).toEqual([]);
      expect(await mirrorIds(ref)).toEqual([]);
    });

    it('leaves an account’s due items to its earlier expiry job (two processes’ sweeps at once)', async () => {
      const { listId, ref } = await syncedList(ips(3, 3));
      await makeDue(ref, 3);
      const earlierId = randomUUID();
      await ctx.db.query(
        `INSERT INTO jobs (id, kind, user_id, account_id, state, created_at)
         VALUES ($1, 'ban-list-expiry', $2, $3, 'running', now() - interval '1 second')`,
        [earlierId, alice.id, account.id],
      );
      const run = expiry(100);
      const context = (id: string, createdAt: Date) =>
        ({
          job: { id, accountId: account.id, createdAt },
          signal: new AbortController().signal,
          progress: () => {},
        }) as unknown as Parameters<typeof run.run>[0];
      expect(await run.run(context(randomUUID(), new Date()))).toEqual({ removed: 0 });
      expect(cloudflareIds(listId)).toHaveLength(3);
      await ctx.db.query(`UPDATE jobs SET state = 'succeeded' WHERE id = $1`, [earlierId]);
      expect(await run.run(context(randomUUID(), new Date()))).toEqual({ removed: 3 });
      expect(cloudflareIds(listId)).toEqual([]);
      expect(await mirrorIds(ref)).toEqual([]);
    });

    it('sweeps with one statement, touching neither accounts nor jobs, until an item is due; then queues its account’s job', async () => {
      const { db: counted, statements } = countingDb(ctx.db);
      const parts = createBanListParts(ctx.config, createAppDeps(ctx.config, counted));
      const queued: { kind: string; accountId?: number | null }[] = [];
      const queue = { enqueue: async (job: (typeof queued)[number]) => void queued.push(job) };
      const sweeper = new ItemExpiry(parts, queue as never, 60_000, () => {});
      const { ref } = await syncedList(ips(20, 4));
      await ctx.db.query(
        `UPDATE ban_list_items SET expires_at = now() + interval '1 hour'
         WHERE ban_list_ref = $1 AND id = (SELECT min(id) FROM ban_list_items WHERE ban_list_ref = $1)`,
        [ref],
      );
      statements.length = 0;
      expect(await sweeper.sweep()).toBe(0);
      expect(statements).toHaveLength(1);
      expect(statements[0]).not.toMatch(/cloudflare_accounts|jobs/);
      expect(queued).toEqual([]);
      // An hour later the item is due: its account gets a job.
      expect(await sweeper.sweep(new Date(Date.now() + 3_600_000 + 60_000))).toBeGreaterThanOrEqual(1);
      expect(queued).toContainEqual(
        expect.objectContaining({ kind: 'ban-list-expiry', accountId: account.id }),
      );
    });

    it('takes one change per item of the account’s Lists write budget', async () => {
      const { ref } = await syncedList(ips(5, 2));
      await makeDue(ref, 5);
      const budget = await ctx.db.query<{ items: number }>(
        `SELECT coalesce(sum(items), 0)::int AS items FROM list_write_budget_minutes WHERE account_id = $1`,
        [account.account_id],
      );
      expect(await expiry(100).expireAccount(account.id)).toBe(5);
      const after = await ctx.db.query<{ items: number }>(
        `SELECT coalesce(sum(items), 0)::int AS items FROM list_write_budget_minutes WHERE account_id = $1`,
        [account.account_id],
      );
      expect(after[0]!.items - budget[0]!.items).toBe(5);
    });
  });
});

describe('the expiry sweep', () => {
  let ctx: CloudflareTestContext;
  beforeAll(async () => {
    ctx = await createCloudflareTestContext({ config: { itemExpirySweepMs: 200 } });
  }, 60_000);
  afterAll(() => ctx?.close());

  it(
    'queues a job per account with due items, which removes them at Cloudflare and in the mirror',
    { timeout: 60_000 },
    async () => {
      const carol = await ctx.createUser();
      const account = await ctx.addAccount(carol, { name: 'Sweep Co' });
      const list = ctx.sandbox.control.addList(account.account_id, { name: 'sweep_list', kind: 'ip' });
      const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
        ctx.app.inject({ method, url: `/api/cloudflare/banlists${url}`, headers: carol.headers, payload });
      expect((await call('POST', '/update')).statusCode).toBe(200);
      const added = await call('POST', `/${list.id}/items`, {
        ip: '192.0.2.200',
        comment: 'short ban',
        expires: '1h',
      });
      expect(added.statusCode, added.body).toBe(201);
      const item = added.json<BanListItem>();
      await ctx.db.query(`UPDATE ban_list_items SET expires_at = now() WHERE id = $1`, [item.id]);
      const deadline = Date.now() + 40_000;
      while (
        ctx.sandbox.control.getListItems(account.account_id, list.id).length > 0 &&
        Date.now() < deadline
      )
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(ctx.sandbox.control.getListItems(account.account_id, list.id)).toEqual([]);
      let page: BanListItemsPage | undefined;
      while (Date.now() < deadline) {
        page = (await call('GET', `/${list.id}/items`)).json<BanListItemsPage>();
        if (page.totalItems === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(page?.totalItems).toBe(0);
      const jobs = await ctx.app.inject({ method: 'GET', url: '/api/jobs', headers: carol.headers });
      expect(jobs.body).toContain('ban-list-expiry');
    },
  );
});
