import type { BanList, BanListItem, BanListItemsPage } from '@guardian/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCloudflareTestContext, type CloudflareTestContext } from '../../test/cloudflare-context';
import type { TestUser } from '../../test/context';

/**
 * Issue 36: every page of every order read from the database alone (the answer caches off), right
 * after items were added and removed since the list's last sync, in two round trips (the list, then
 * its page) besides the auth guard's, which a kept session skips.
 */
describe('item pages without the answer caches', () => {
  let ctx: CloudflareTestContext;
  let alice: TestUser;
  let listId: string;
  /** More than two buckets of each order (migration 038 cuts them every 1,000 items). */
  const SEEDED = 2_600;

  beforeAll(async () => {
    ctx = await createCloudflareTestContext({
      // The session kept, as in production (2 s there), so a request's own round trips can be counted;
      // the periodic sweeps (alert mail every 5 s, CrowdSec pulls every 10 s: both read users) held off,
      // so none of theirs is counted as the request's on a slow machine.
      config: {
        answerCaches: false,
        sessionRecheckMs: 600_000,
        jobs: { waitMs: 600_000 },
        crowdsecSweepMs: 3_600_000,
        itemExpirySweepMs: 3_600_000,
        notifications: { mailWindowMs: 300_000, mailSweepMs: 3_600_000 },
      },
    });
    alice = await ctx.createUser();
    const account = await ctx.addAccount(alice, { name: 'Pages Co' });
    const list = ctx.sandbox.control.addList(account.account_id, { name: 'pages', kind: 'ip' });
    // Comments and addresses in orders of their own, neither the other's nor Cloudflare's.
    ctx.sandbox.control.seedListItems(
      account.account_id,
      list.id,
      Array.from({ length: SEEDED }, (_, i) => {
        const n = (i * 7919) % SEEDED;
        return {
          ip: `10.${n % 7}.${n >> 8}.${n & 255}`,
          comment: `note ${String((i * 104_729) % SEEDED).padStart(5, '0')}`,
        };
      }),
    );
    listId = list.id;
    const call = (method: 'POST', url: string) =>
      ctx.app.inject({ method, url: `/api/cloudflare/banlists${url}`, headers: alice.headers });
    expect((await call('POST', '/update')).statusCode).toBe(200);
    expect((await call('POST', `/${listId}/sync`)).statusCode).toBe(200);
  }, 600_000);
  afterAll(() => ctx.close());

  const page = async (query: string) => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/cloudflare/banlists/${listId}/items?${query}`,
      headers: alice.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<BanListItemsPage>();
  };

  /** The whole list as stored, by id. */
  async function everything(): Promise<BanListItem[]> {
    const items: BanListItem[] = [];
    for (let n = 1; items.length < (await page('per_page=1')).totalItems; n++)
      items.push(...(await page(`per_page=500&page=${n}&order=asc`)).items);
    return items;
  }

  const addressKey = (item: BanListItem) =>
    item.ip.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
  const byKey =
    <K extends number | string>(key: (item: BanListItem) => K) =>
    (a: BanListItem, b: BanListItem) => {
      const [ka, kb] = [key(a), key(b)];
      return ka < kb ? -1 : ka > kb ? 1 : a.id - b.id;
    };
  const ORDERS = {
    id: byKey(() => 0),
    ip: byKey(addressKey),
    comment: byKey((item) => item.comment),
    created_on: byKey((item) => Date.parse(item.created_on)),
  };

  it('serves the first, middle and last pages of every order, both ways, after adds and removes since the sync', async () => {
    const call = (method: 'POST' | 'DELETE', url: string, payload?: object) =>
      ctx.app.inject({
        method,
        url: `/api/cloudflare/banlists/${listId}${url}`,
        headers: alice.headers,
        payload,
      });
    // Added in the middle of the address and comment orders, and last by date.
    for (const [ip, comment] of [
      ['10.3.50.1', 'note 01300a'],
      ['9.0.0.1', 'note 00000a'],
      ['11.0.0.1', 'note 99999'],
    ] as const) {
      const added = await call('POST', '/items', { ip, comment });
      expect(added.statusCode, added.body).toBe(201);
    }
    const stored = await everything();
    for (const gone of [stored[0]!, stored[1_000]!, stored[1_001]!, stored[1_999]!, stored[2_500]!]) {
      expect((await call('DELETE', `/items/${gone.id}`)).statusCode).toBe(204);
    }
    const items = await everything();
    expect(items).toHaveLength(SEEDED + 3 - 5);

    const perPage = 100;
    const pages = Math.ceil(items.length / perPage);
    for (const [sort, compare] of Object.entries(ORDERS)) {
      const ascending = [...items].sort(compare);
      for (const order of ['asc', 'desc'] as const) {
        const expected = order === 'asc' ? ascending : [...ascending].reverse();
        for (const n of [1, 2, Math.ceil(pages / 2), pages - 1, pages]) {
          const answer = await page(`sort=${sort}&order=${order}&per_page=${perPage}&page=${n}`);
          expect(answer.totalItems).toBe(items.length);
          expect(
            answer.items.map((item) => item.id),
            `${sort} ${order} page ${n}`,
          ).toEqual(expected.slice((n - 1) * perPage, n * perPage).map((item) => item.id));
        }
      }
    }
  }, 600_000);

  /** Not the job worker's claim, which names the lists' turns (a loaded machine lets it into a request). */
  const notTheWorker = (sql: string) => !/\bjobs\b/.test(sql);

  it('answers any page or search in two round trips: the list, then the page with its count', async () => {
    await page('per_page=1');
    const queries = vi.spyOn(ctx.db, 'query');
    try {
      for (const query of [
        'page=14',
        'order=asc&page=13',
        'sort=ip&page=13',
        'sort=ip&order=desc&page=7',
        'sort=comment&page=13',
        'sort=created_on&order=desc&page=13',
        'search=note%20012',
        'search=note&page=2',
      ]) {
        queries.mockClear();
        await page(query);
        // The request's statements: the app's job worker and sweeps share the database meanwhile.
        const statements = queries.mock.calls
          .map(([sql]) => sql.replace(/\s+/g, ' '))
          .filter((sql) => /ban_list|users|sessions/.test(sql) && notTheWorker(sql))
          .map((sql) => sql.slice(0, 60));
        expect(statements.length, `${query}: ${statements.join(' | ')}`).toBe(2);
      }
      // A search that could start an address first asks how many values do (to pick its plan).
      queries.mockClear();
      await page('search=10.3');
      expect(
        queries.mock.calls.filter(([sql]) => sql.includes('ban_list') && notTheWorker(sql)),
        'search=10.3',
      ).toHaveLength(3);
    } finally {
      queries.mockRestore();
    }
  });

  it('keeps serving every page after the list is synced again', async () => {
    const call = (url: string) =>
      ctx.app.inject({ method: 'POST', url: `/api/cloudflare/banlists${url}`, headers: alice.headers });
    const sync = await call(`/${listId}/sync`);
    expect(sync.statusCode).toBe(200);
    const items = await everything();
    expect(items).toHaveLength(sync.json<BanList>().items);
    const byComment = [...items].sort(ORDERS.comment);
    expect((await page('sort=comment&per_page=100&page=13')).items.map((item) => item.id)).toEqual(
      byComment.slice(1_200, 1_300).map((item) => item.id),
    );
  }, 600_000);

  it('restores a Clean All whose items come back in the middle of the Created On order, and pages it right', async () => {
    // Dates of their own, a second apart in the order of their ids. A restore brings the items back
    // dated now and then gives them their first dates: each moves from the end of the Created On order
    // to the place it had, which is again the place of its id, so the item that starts a bucket as
    // the restore's sync cut them is again the one where a grown bucket is cut.
    await ctx.db.query(
      `UPDATE ban_list_items SET first_created_on = now() - interval '1 day' + id * interval '1 second'
       WHERE ban_list_ref = (SELECT id FROM ban_lists WHERE list_id = $1)`,
      [listId],
    );
    const before = await everything();
    const call = (url: string) =>
      ctx.app.inject({ method: 'POST', url: `/api${url}`, headers: alice.headers });
    expect((await call('/cloudflare/banlists/clean')).statusCode).toBe(200);
    expect((await page('per_page=1')).totalItems).toBe(0);
    const snapshots = await ctx.app.inject({
      method: 'GET',
      url: '/api/snapshots?kind=clean-all',
      headers: alice.headers,
    });
    const [snapshot] = snapshots.json<{ id: string }[]>();
    const restored = await call(`/snapshots/${snapshot!.id}/restore`);
    expect(restored.statusCode, restored.body).toBe(200);

    const items = await everything();
    const dated = (each: BanListItem[]) => each.map((item) => `${item.ip} ${item.created_on}`).sort();
    expect(dated(items)).toEqual(dated(before));
    const byDate = [...items].sort(ORDERS.created_on);
    for (const n of [1, 13, 26]) {
      expect(
        (await page(`sort=created_on&order=asc&per_page=100&page=${n}`)).items.map((item) => item.id),
        `created_on page ${n}`,
      ).toEqual(byDate.slice((n - 1) * 100, n * 100).map((item) => item.id));
    }
  }, 600_000);
});
