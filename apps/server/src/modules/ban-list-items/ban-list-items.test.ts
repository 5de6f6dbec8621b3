import { refusalOf } from '../../test/request';
import type { BanList, BanListItem, BanListItemsPage } from '@guardian/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCloudflareTestContext, type CloudflareTestContext } from '../../test/cloudflare-context';
import type { TestUser } from '../../test/context';
import { backfillSql } from '../../db/migrations/014_item_sort_key';
import type { Queryable } from '../../db';
import { BanListItemsRepository } from '../ban-list-mirror';

type Account = Awaited<ReturnType<CloudflareTestContext['addAccount']>>;

describe('ban list items', () => {
  let ctx: CloudflareTestContext;
  let alice: TestUser;
  let bob: TestUser;
  let account: Account;

  beforeAll(async () => {
    // Syncs wait for their jobs (200, not 202 after 5 s) however loaded the machine, a 20,300-item one too.
    ctx = await createCloudflareTestContext({ config: { jobs: { waitMs: 600_000 } } });
    alice = await ctx.createUser();
    bob = await ctx.createUser();
    account = await ctx.addAccount(alice, { name: 'Items Co' });
  });
  afterAll(() => ctx.close());
  afterEach(() => ctx.sandbox.control.clearFaults());

  const call = (user: TestUser, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    ctx.app.inject({ method, url: `/api/cloudflare/banlists${url}`, headers: user.headers, payload });
  const itemsPage = async (listId: string, query = '', user = alice) => {
    const response = await call(user, 'GET', `/${listId}/items${query ? `?${query}` : ''}`);
    expect(response.statusCode).toBe(200);
    return response.json<BanListItemsPage>();
  };

  let listCounter = 0;
  /** A list at Cloudflare with `items`, pulled into the console and synced. */
  async function syncedList(
    items: Record<string, unknown>[],
    options: { kind?: 'ip' | 'hostname' | 'asn' | 'redirect'; owner?: Account; user?: TestUser } = {},
  ) {
    const owner = options.owner ?? account;
    const user = options.user ?? alice;
    listCounter += 1;
    const list = ctx.sandbox.control.addList(owner.account_id, {
      name: `list_${listCounter}`,
      kind: options.kind ?? 'ip',
    });
    if (items.length > 0) ctx.sandbox.control.seedListItems(owner.account_id, list.id, items);
    expect((await call(user, 'POST', '/update')).statusCode).toBe(200);
    const sync = await call(user, 'POST', `/${list.id}/sync`);
    expect(sync.statusCode).toBe(200);
    return { listId: list.id, ref: sync.json<BanList>().id };
  }

  const ips = (count: number, comment = (i: number) => `item ${i}`) =>
    Array.from({ length: count }, (_, i) => ({ ip: `10.0.${i >> 8}.${i & 255}`, comment: comment(i) }));

  /** The mirror as stored, and the count the list shows: they must always agree. */
  async function mirror(ref: number) {
    const rows = await ctx.db.query<{ item_id: string; ip: string; comment: string }>(
      'SELECT item_id, ip, comment FROM ban_list_items WHERE ban_list_ref = $1 ORDER BY item_id',
      [ref],
    );
    const [list] = await ctx.db.query<{ items_count: number }>(
      'SELECT items_count FROM ban_lists WHERE id = $1',
      [ref],
    );
    expect(list!.items_count).toBe(rows.length);
    return rows;
  }
  const cloudflareItems = (listId: string, owner = account) =>
    ctx.sandbox.control
      .getListItems(owner.account_id, listId)
      .map((item) => ({
        item_id: item.id as string,
        ip: item.ip as string,
        comment: (item.comment as string) ?? '',
      }))
      .sort((a, b) => a.item_id.localeCompare(b.item_id));
  const itemCalls = () => ctx.sandbox.control.callCount({ method: 'GET', path: /\/items$/ });

  describe('sync', () => {
    it('reads every item with as few Cloudflare calls as the cursor needs and mirrors them', async () => {
      const calls = itemCalls();
      const { listId, ref } = await syncedList(ips(1234));
      expect(itemCalls() - calls).toBe(3);
      expect(await mirror(ref)).toEqual(cloudflareItems(listId));
      expect((await itemsPage(listId)).totalItems).toBe(1234);
    });

    it('swaps in a loaded list whose indexes are the mirror’s own, each attached, none built twice', async () => {
      const { ref } = await syncedList(ips(50));
      // An index of the load table that differs from the partitioned one (a predicate written
      // otherwise) would stay beside a second one that attaching builds inside its transaction.
      const indexes = await ctx.db.query<{ definition: string; parent: string | null }>(
        `SELECT pg_get_indexdef(x.indexrelid) AS definition, p.inhparent::regclass::text AS parent
         FROM pg_index x LEFT JOIN pg_inherits p ON p.inhrelid = x.indexrelid
         WHERE x.indrelid = $1::regclass`,
        [`ban_list_items_${ref}`],
      );
      const [{ count }] = (await ctx.db.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM pg_index WHERE indrelid = 'ban_list_items'::regclass`,
      )) as [{ count: number }];
      expect(indexes).toHaveLength(count);
      for (const index of indexes) expect(index.parent, index.definition).not.toBeNull();
      expect(indexes.some((index) => /USING gist .* WHERE/.test(index.definition))).toBe(true);
    });

    it('mirrors an empty list with one call', async () => {
      const calls = itemCalls();
      const { listId, ref } = await syncedList([]);
      expect(itemCalls() - calls).toBe(1);
      expect(await mirror(ref)).toEqual([]);
      expect(await itemsPage(listId)).toEqual({ items: [], totalItems: 0, totalItemsCapped: false });
    });

    it('writes nothing when Cloudflare has not changed, and follows every change when it has', async () => {
      const { listId, ref } = await syncedList(ips(600));
      const version = async () =>
        (
          await ctx.db.query<{ items_version: number }>('SELECT items_version FROM ban_lists WHERE id = $1', [
            ref,
          ])
        )[0]!.items_version;
      const before = await version();
      const idsBefore = (await itemsPage(listId, 'per_page=500')).items.map((item) => item.id);
      expect((await call(alice, 'POST', `/${listId}/sync`)).statusCode).toBe(200);
      expect(await version()).toBe(before);
      expect((await itemsPage(listId, 'per_page=500')).items.map((item) => item.id)).toEqual(idsBefore);

      // Changed at Cloudflare: one added, one removed, one comment changed.
      ctx.sandbox.control.seedListItems(account.account_id, listId, [
        { ip: '10.9.9.9', comment: 'new' },
        { ip: '10.0.0.5', comment: 'changed' },
      ]);
      const removed = ctx.sandbox.control
        .getListItems(account.account_id, listId)
        .find((item) => item.ip === '10.0.0.7');
      await fetch(`${ctx.sandbox.baseUrl}/accounts/${account.account_id}/rules/lists/${listId}/items`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${account.tokenValue}`, 'content-type': 'application/json' },
        body: JSON.stringify({ items: [{ id: removed!.id }] }),
      });
      await ctx.sandbox.control.settle();
      const response = await call(alice, 'POST', `/${listId}/sync`);
      expect(response.json<BanList>().items).toBe(600);
      expect(await mirror(ref)).toEqual(cloudflareItems(listId));
      expect((await itemsPage(listId, 'search=changed')).items.map((item) => item.ip)).toEqual(['10.0.0.5']);
    });

    it('applies comments changed at Cloudflare in place, keeping every id', async () => {
      const { listId, ref } = await syncedList(ips(2500));
      const idsBefore = (await itemsPage(listId, 'per_page=500&sort=ip')).items.map((item) => item.id);
      ctx.sandbox.control.seedListItems(account.account_id, listId, [
        { ip: '10.0.0.0', comment: 'first changed' },
        { ip: '10.0.9.195', comment: 'last changed' },
      ]);
      const response = await call(alice, 'POST', `/${listId}/sync`);
      expect(response.json<BanList>().items).toBe(2500);
      expect(await mirror(ref)).toEqual(cloudflareItems(listId));
      expect((await itemsPage(listId, 'per_page=500&sort=ip')).items.map((item) => item.id)).toEqual(
        idsBefore,
      );
      expect((await itemsPage(listId, 'search=changed')).items.map((item) => item.comment).sort()).toEqual([
        'first changed',
        'last changed',
      ]);
    });

    it('keeps the old mirror when Cloudflare fails midway, and leaves no load table behind', async () => {
      const { listId, ref } = await syncedList(ips(1500));
      ctx.sandbox.control.seedListItems(
        account.account_id,
        listId,
        ips(1500, () => 'renamed'),
      );
      const before = await mirror(ref);
      const calls = itemCalls();
      ctx.sandbox.control.injectFault({ method: 'GET', path: /\/items$/, latencyMs: 100 });
      const sync = call(alice, 'POST', `/${listId}/sync`);
      while (itemCalls() - calls < 2) await new Promise((resolve) => setTimeout(resolve, 10));
      ctx.sandbox.control.injectFault({ method: 'GET', path: /\/items$/, status: 503 });
      const response = await sync;
      expect(response.statusCode).toBe(502);
      expect(await mirror(ref)).toEqual(before);
      // This test's schema only: other files' syncs run at once on PostgreSQL.
      const tables = await ctx.db.query(
        "SELECT 1 FROM pg_class WHERE relname LIKE 'ban_list_items%next' AND relnamespace = current_schema()::regnamespace",
      );
      expect(tables).toEqual([]);
      ctx.sandbox.control.clearFaults();
      expect((await call(alice, 'POST', `/${listId}/sync`)).statusCode).toBe(200);
      expect(await mirror(ref)).toEqual(cloudflareItems(listId));
    });

    it('answers 429 when Cloudflare rate limits, keeping the mirror', async () => {
      // Someone else's account: the console then holds that token back for as long as Cloudflare asked.
      const carol = await ctx.createUser();
      const limited = await ctx.addAccount(carol, { name: 'Limited Co' });
      const { listId, ref } = await syncedList(ips(3), { owner: limited, user: carol });
      const before = await mirror(ref);
      ctx.sandbox.control.injectFault({
        method: 'GET',
        path: /\/items$/,
        status: 429,
        retryAfterSeconds: 120,
      });
      const response = await call(carol, 'POST', `/${listId}/sync`);
      expect(response.statusCode).toBe(429);
      expect(response.json().message).toBe(
        'Cloudflare is rate limiting this account. Please try again in 2 minutes.',
      );
      expect(await mirror(ref)).toEqual(before);
    });

    it("answers 404 for another person's list and changes nothing", async () => {
      const { listId, ref } = await syncedList(ips(2));
      const before = await mirror(ref);
      expect((await call(bob, 'POST', `/${listId}/sync`)).statusCode).toBe(404);
      expect((await call(bob, 'GET', `/${listId}/items`)).statusCode).toBe(404);
      expect((await call(alice, 'POST', '/no-such-list/sync')).statusCode).toBe(404);
      expect(await mirror(ref)).toEqual(before);
    });

    it('mirrors the items of hostname, asn and redirect lists as text', async () => {
      const hosts = await syncedList([{ hostname: { url_hostname: 'api.example.com' }, comment: 'h' }], {
        kind: 'hostname',
      });
      const asns = await syncedList([{ asn: 13335, comment: 'a' }], { kind: 'asn' });
      const redirects = await syncedList(
        [
          {
            redirect: { source_url: 'example.com/old', target_url: 'https://example.com/new' },
            comment: 'r',
          },
        ],
        { kind: 'redirect' },
      );
      expect((await itemsPage(hosts.listId)).items[0]!.ip).toBe('api.example.com');
      expect((await itemsPage(asns.listId)).items[0]!.ip).toBe('13335');
      expect((await itemsPage(redirects.listId)).items[0]!.ip).toBe(
        'example.com/old -> https://example.com/new',
      );
    });
  });

  describe('reading', () => {
    let listId: string;
    /** Every item, newest first, as the screen pages through them. */
    let all: BanListItem[];

    beforeAll(async () => {
      ({ listId } = await syncedList([
        ...ips(250, (i) => (i % 10 === 0 ? `Scanner hit ${i}` : `ssh brute force ${i}`)),
        { ip: '2001:db8::1', comment: '100% sure_match' },
      ]));
      all = (await itemsPage(listId, 'per_page=500')).items;
    });

    it('answers page 1 of 100 items, newest first, with the total', async () => {
      const page = await itemsPage(listId);
      expect(page.totalItems).toBe(251);
      expect(page.totalItemsCapped).toBe(false);
      expect(page.items).toEqual(all.slice(0, 100));
      expect(page.items[0]).toEqual({
        id: expect.any(Number),
        ip: expect.any(String),
        comment: expect.any(String),
        created_on: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        // Found by the sync: nobody added it through Guardian.
        added_via: 'cloudflare',
        added_by: '',
        expires_at: null,
      });
      expect(all.map((item) => item.id)).toEqual([...all.map((item) => item.id)].sort((a, b) => b - a));
    });

    it('pages from either end alike', async () => {
      expect((await itemsPage(listId, 'page=2')).items).toEqual(all.slice(100, 200));
      expect((await itemsPage(listId, 'page=3')).items).toEqual(all.slice(200));
      expect((await itemsPage(listId, 'page=4')).items).toEqual([]);
      expect((await itemsPage(listId, 'page=2&per_page=7&order=asc')).items).toEqual(
        [...all].reverse().slice(7, 14),
      );
    });

    it('sorts by each column, both ways', async () => {
      const byIp = (await itemsPage(listId, 'sort=ip&per_page=500')).items.map((item) => item.ip);
      // As addresses: 10.0.0.0 ... 10.0.0.249, then the IPv6 address.
      expect(byIp).toEqual([...Array.from({ length: 250 }, (_, i) => `10.0.0.${i}`), '2001:db8::1']);
      const byIpDesc = (await itemsPage(listId, 'sort=ip&order=desc&per_page=500')).items.map(
        (item) => item.ip,
      );
      expect(byIpDesc).toEqual([...byIp].reverse());
      const byComment = (await itemsPage(listId, 'sort=comment&per_page=500')).items.map(
        (item) => item.comment,
      );
      expect(byComment).toEqual([...byComment].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      const byCreated = (await itemsPage(listId, 'sort=created_on&order=desc&per_page=5')).items;
      expect(byCreated).toHaveLength(5);
      expect((await itemsPage(listId, 'sort=ip&page=3&per_page=100')).items.map((item) => item.ip)).toEqual(
        byIp.slice(200),
      );
    });

    it('searches comments case-insensitively and values by their start', async () => {
      const scanner = await itemsPage(listId, 'search=SCANNER');
      expect(scanner.totalItems).toBe(25);
      expect(scanner.items.every((item) => item.comment.startsWith('Scanner'))).toBe(true);
      const prefixed = (await itemsPage(listId, 'search=10.0.0.1&per_page=500')).items.map((item) => item.ip);
      const expected = [
        '10.0.0.1',
        ...Array.from({ length: 10 }, (_, i) => `10.0.0.1${i}`),
        ...Array.from({ length: 100 }, (_, i) => `10.0.0.${100 + i}`),
      ];
      expect(prefixed.sort()).toEqual(expected.sort());
      expect((await itemsPage(listId, 'search=2001:DB8')).items.map((item) => item.ip)).toEqual([
        '2001:db8::1',
      ]);
      expect((await itemsPage(listId, 'search=0.0.1')).totalItems).toBe(0);
      // LIKE's wildcards are searched for as they are.
      expect((await itemsPage(listId, 'search=100%25')).items.map((item) => item.ip)).toEqual([
        '2001:db8::1',
      ]);
      expect((await itemsPage(listId, 'search=e_m')).items.map((item) => item.ip)).toEqual(['2001:db8::1']);
    });

    it('counts a broad search only a few pages ahead', async () => {
      const page = await itemsPage(listId, 'search=brute&per_page=10');
      expect(page).toMatchObject({ totalItems: 30, totalItemsCapped: true });
      expect(page.items).toHaveLength(10);
      const further = await itemsPage(listId, 'search=brute&per_page=10&page=21');
      expect(further).toMatchObject({ totalItems: 225, totalItemsCapped: false });
    });

    it('matches a search too short for the comment index at the start of a word, and values by their start', async () => {
      // 'ss' is inside no word start of "Scanner hit"; within "ssh brute force" it starts the comment.
      const ss = await itemsPage(listId, 'search=ss&per_page=500');
      expect(ss.totalItems).toBe(225);
      expect(ss.items.every((item) => item.comment.startsWith('ssh brute force'))).toBe(true);
      // "brute" is a word of its own: its start matches, its middle ("ru") does not.
      expect((await itemsPage(listId, 'search=br')).totalItems).toBe(225);
      expect((await itemsPage(listId, 'search=ru')).totalItems).toBe(0);
      expect((await itemsPage(listId, 'search=H')).totalItems).toBe(25);
      // A value prefix is matched whatever its length: 2001:db8::1, and the comments' words 20, 200-209.
      const twenty = await itemsPage(listId, 'search=20&per_page=500');
      expect(twenty.totalItems).toBe(12);
      expect(twenty.items.map((item) => item.ip)).toContain('2001:db8::1');
      // Only signs: nothing the comment index can find, so values only.
      expect((await itemsPage(listId, 'search=%25')).totalItems).toBe(0);
    });

    it('pages a search through its first 10,000 matches only, and says so past them', async () => {
      const last = await itemsPage(listId, 'search=brute&per_page=100&page=100');
      expect(last).toMatchObject({ items: [], totalItems: 225, totalItemsCapped: false });
      const response = await call(alice, 'GET', `/${listId}/items?search=brute&per_page=100&page=101`);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(
        'A search shows its first 10,000 matches. Narrow it down to see the others.',
      );
    });

    it('pages the comment and date orders at any depth (issue 36: by their buckets, no offset walk)', async () => {
      const { listId: big } = await syncedList(ips(20_300, (i) => `c${String(i).padStart(6, '0')}`));
      const byComment = await itemsPage(big, 'sort=comment&page=100');
      expect(byComment.items.map((item) => item.comment)[0]).toBe('c009900');
      const fromEnd = await itemsPage(big, 'sort=comment&page=104');
      expect(fromEnd.items.map((item) => item.comment)[0]).toBe('c010300');
      const middle = await itemsPage(big, 'sort=comment&page=102');
      expect(middle.items.map((item) => item.comment)).toEqual(
        Array.from({ length: 100 }, (_, i) => `c${String(10_100 + i).padStart(6, '0')}`),
      );
      // One date for every seeded item: the date order is the id order within it.
      const byDate = await itemsPage(big, 'sort=created_on&order=desc&page=102');
      expect(byDate.items).toHaveLength(100);
      expect(byDate.items).toEqual((await itemsPage(big, 'sort=id&order=desc&page=102')).items);
      expect((await itemsPage(big, 'sort=ip&page=102')).items).toHaveLength(100);
    });

    it.each([
      ['page=0', 'page must be 1 or more.'],
      ['page=abc', 'page must be a number.'],
      ['page=1.5', 'page must be a whole number.'],
      ['per_page=501', 'per_page must be at most 500.'],
      ['per_page=0', 'per_page must be 1 or more.'],
      ['sort=name', 'sort must be one of id, ip, comment, created_on, expires_at, added_by.'],
      ['order=up', 'order must be asc or desc.'],
      [`search=${'x'.repeat(201)}`, 'The search must be at most 200 characters.'],
    ])('answers 400 for %s', async (query, message) => {
      const response = await call(alice, 'GET', `/${listId}/items?${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain(message);
    });

    it("answers 404 for another person's list", async () => {
      const response = await call(bob, 'GET', `/${listId}/items`);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Ban list not found.');
    });
  });

  describe('exact totals of a search', () => {
    let listId: string;
    const count = async (id: string, search: string, user = alice) => {
      const response = await call(user, 'GET', `/${id}/items/count?search=${encodeURIComponent(search)}`);
      expect(response.statusCode).toBe(200);
      return response.json<{ totalItems: number }>();
    };
    /** The database's count statements while `run` runs. */
    async function countStatements(run: () => Promise<unknown>): Promise<number> {
      const query = vi.spyOn(ctx.db, 'query');
      try {
        await run();
        return query.mock.calls.filter(([sql]) => /count\(\*\)/.test(String(sql))).length;
      } finally {
        query.mockRestore();
      }
    }

    beforeAll(async () => {
      ({ listId } = await syncedList(
        ips(1500, (i) => (i % 3 === 0 ? `Scraper ${i}` : `ssh brute force ${i}`)),
      ));
    });

    it('answers the exact number of matches, and pages then carry it', async () => {
      const first = await itemsPage(listId, 'search=Scraper');
      expect(first).toMatchObject({ totalItems: 300, totalItemsCapped: true });
      expect(await count(listId, 'Scraper')).toEqual({ totalItems: 500 });
      expect(await count(listId, '10.0.')).toEqual({ totalItems: 1500 });
      expect(await count(listId, '10.0.1.')).toEqual({ totalItems: 256 });
      expect(await count(listId, 'nothing at all')).toEqual({ totalItems: 0 });
      expect(await count(listId, '')).toEqual({ totalItems: 1500 });
      // Known now: every page of the search says it, the first one too.
      expect(await itemsPage(listId, 'search=Scraper&page=2')).toMatchObject({
        totalItems: 500,
        totalItemsCapped: false,
      });
      expect((await itemsPage(listId, 'search=Scraper&page=5')).items).toHaveLength(100);
      expect(await itemsPage(listId, 'search=10.0.')).toMatchObject({
        totalItems: 1500,
        totalItemsCapped: false,
      });
    });

    it('counts once per version of the list and search, and again after the list changed', async () => {
      expect(await countStatements(() => count(listId, 'brute'))).toBe(1);
      expect(await countStatements(() => count(listId, 'brute'))).toBe(0);
      expect((await count(listId, 'brute')).totalItems).toBe(1000);
      const added = await call(alice, 'POST', `/${listId}/items`, { ip: '198.51.100.9', comment: 'brute' });
      expect(added.statusCode).toBe(201);
      expect((await count(listId, 'brute')).totalItems).toBe(1001);
      expect(await itemsPage(listId, 'search=brute&per_page=10')).toMatchObject({
        totalItems: 1001,
        totalItemsCapped: false,
      });
      expect(
        (await call(alice, 'DELETE', `/${listId}/items/${added.json<BanListItem>().id}`)).statusCode,
      ).toBe(204);
      expect((await count(listId, 'brute')).totalItems).toBe(1000);
      // A sync that changed the list counts again.
      ctx.sandbox.control.seedListItems(account.account_id, listId, [
        { ip: '198.51.100.10', comment: 'brute' },
      ]);
      expect((await call(alice, 'POST', `/${listId}/sync`)).statusCode).toBe(200);
      expect((await count(listId, 'brute')).totalItems).toBe(1001);
    });

    it('keeps the search within its bounds', async () => {
      const long = await call(alice, 'GET', `/${listId}/items/count?search=${'x'.repeat(201)}`);
      expect(long.statusCode).toBe(400);
      expect(long.json().message).toContain('The search must be at most 200 characters.');
      const other = await call(bob, 'GET', `/${listId}/items/count?search=brute`);
      expect(other.statusCode).toBe(404);
      expect(other.json().message).toBe('Ban list not found.');
    });
  });

  describe('the IP Address order', () => {
    it('sorts addresses as addresses: IPv4 before IPv6, a CIDR by its network then its prefix', async () => {
      const values = [
        '10.0.0.10',
        '2001:db8::10',
        '10.0.0.2',
        '192.168.1.0/24',
        '9.255.255.255',
        '10.0.0.0/8',
        '2001:db8::2',
        '10.0.0.0/24',
        '2001:db8::/48',
        '10.0.0.1',
        '::1',
        '192.168.1.5',
        'fe80::1',
        '100.64.0.1',
      ];
      const { listId } = await syncedList(values.map((ip) => ({ ip, comment: `at ${ip}` })));
      const expected = [
        '9.255.255.255',
        '10.0.0.0/8',
        '10.0.0.0/24',
        '10.0.0.1',
        '10.0.0.2',
        '10.0.0.10',
        '100.64.0.1',
        '192.168.1.0/24',
        '192.168.1.5',
        '::1',
        '2001:db8::/48',
        '2001:db8::2',
        '2001:db8::10',
        'fe80::1',
      ];
      const order = async (query: string) =>
        (await itemsPage(listId, `sort=ip&${query}`)).items.map((item) => item.ip);
      expect(await order('per_page=500')).toEqual(expected);
      expect(await order('order=desc&per_page=500')).toEqual([...expected].reverse());
      expect(await order('per_page=4&page=2')).toEqual(expected.slice(4, 8));
      expect(await order('per_page=4&page=3&order=desc')).toEqual([...expected].reverse().slice(8, 12));
      // A search keeps the order; an added item takes its place in it.
      const cidrs = ['10.0.0.0/8', '10.0.0.0/24'];
      expect(await order('search=10.0.0.')).toEqual([...cidrs, '10.0.0.1', '10.0.0.2', '10.0.0.10']);
      const added = await call(alice, 'POST', `/${listId}/items`, { ip: '10.0.0.3', comment: 'added' });
      expect(added.statusCode).toBe(201);
      expect(await order('search=10.0.0.')).toEqual([
        ...cidrs,
        '10.0.0.1',
        '10.0.0.2',
        '10.0.0.3',
        '10.0.0.10',
      ]);
    });

    it('keeps the order after a sync that only changed comments', async () => {
      const { listId } = await syncedList(ips(600).reverse());
      ctx.sandbox.control.seedListItems(account.account_id, listId, [{ ip: '10.0.0.2', comment: 'changed' }]);
      expect((await call(alice, 'POST', `/${listId}/sync`)).statusCode).toBe(200);
      const page = (await itemsPage(listId, 'sort=ip&per_page=12')).items.map((item) => item.ip);
      expect(page).toEqual(Array.from({ length: 12 }, (_, i) => `10.0.0.${i}`));
    });

    it('orders the items mirrored before migration 014 once it ran, an unreadable value last', async () => {
      const { listId, ref } = await syncedList(
        ['10.0.0.10', '10.0.0.9', '::1'].map((ip) => ({ ip, comment: 'old' })),
      );
      await ctx.db.query(`UPDATE ban_list_items SET ip_sort = NULL WHERE ban_list_ref = $1`, [ref]);
      await ctx.db.query(
        `UPDATE ban_list_items SET ip = '10.0.0.300' WHERE ban_list_ref = $1 AND ip = '::1'`,
        [ref],
      );
      await ctx.db.exec(backfillSql);
      const keys = await ctx.db.query<{ ip: string; ip_sort: string | null }>(
        'SELECT ip, ip_sort::text AS ip_sort FROM ban_list_items WHERE ban_list_ref = $1 ORDER BY ip',
        [ref],
      );
      expect(keys).toEqual([
        { ip: '10.0.0.10', ip_sort: '10.0.0.10/32' },
        { ip: '10.0.0.300', ip_sort: null },
        { ip: '10.0.0.9', ip_sort: '10.0.0.9/32' },
      ]);
      expect((await itemsPage(listId, 'sort=ip')).items.map((item) => item.ip)).toEqual([
        '10.0.0.9',
        '10.0.0.10',
        '10.0.0.300',
      ]);
    });

    it('sorts the values of other kinds of list as text', async () => {
      const { listId } = await syncedList(
        ['b.example.com', 'a.example.com', 'c.example.com'].map((url_hostname) => ({
          hostname: { url_hostname },
        })),
        { kind: 'hostname' },
      );
      expect((await itemsPage(listId, 'sort=ip')).items.map((item) => item.ip)).toEqual([
        'a.example.com',
        'b.example.com',
        'c.example.com',
      ]);
    });
  });

  describe('add', () => {
    let listId: string;
    let ref: number;

    beforeAll(async () => {
      ({ listId, ref } = await syncedList([{ ip: '192.0.2.1', comment: 'seed' }]));
    });

    it('writes the item at Cloudflare, then to the mirror with Cloudflare’s id', async () => {
      const response = await call(alice, 'POST', `/${listId}/items`, {
        ip: ' 203.0.113.7 ',
        comment: ' Abuse report ',
      });
      expect(response.statusCode).toBe(201);
      const item = response.json<BanListItem>();
      expect(item).toEqual({
        id: expect.any(Number),
        ip: '203.0.113.7',
        comment: 'Abuse report',
        created_on: expect.any(String),
        added_via: 'console',
        added_by: alice.email,
        expires_at: null,
      });
      expect(cloudflareItems(listId)).toContainEqual(
        expect.objectContaining({ ip: '203.0.113.7', comment: 'Abuse report' }),
      );
      expect(await mirror(ref)).toEqual(cloudflareItems(listId));
      const page = await itemsPage(listId);
      expect(page.items[0]).toEqual(item);
      expect(page.totalItems).toBe(2);
      expect(
        (await call(alice, 'GET', '')).json<BanList[]>().find((list) => list.list_id === listId)?.items,
      ).toBe(2);
    });

    it.each([
      ['2001:DB8:0:0:0:0:0:0A', '2001:db8::a'],
      ['198.51.100.77/24', '198.51.100.0/24'],
      ['198.51.101.1/32', '198.51.101.1'],
      ['2001:db8:abcd:1234::/48', '2001:db8:abcd::/48'],
    ])('normalises %s to %s, as Cloudflare stores it', async (input, stored) => {
      const response = await call(alice, 'POST', `/${listId}/items`, { ip: input, comment: 'n' });
      expect(response.statusCode).toBe(201);
      expect(response.json().ip).toBe(stored);
      expect(cloudflareItems(listId).map((item) => item.ip)).toContain(stored);
    });

    it.each([
      [{ ip: '', comment: 'c' }, 'IP Address / CIDR is required.'],
      [{ ip: '1.2.3.4', comment: '  ' }, 'Comment is required.'],
      [{ comment: 'c' }, 'ip'],
      [{ ip: '1.2.3', comment: 'c' }, '"1.2.3" is not a valid IPv4 or IPv6 address or CIDR.'],
      [{ ip: '256.1.1.1', comment: 'c' }, 'is not a valid IPv4 or IPv6 address or CIDR.'],
      [{ ip: '010.1.1.1', comment: 'c' }, 'is not a valid IPv4 or IPv6 address or CIDR.'],
      [{ ip: '10.0.0.0/7', comment: 'c' }, 'IPv4 CIDR prefixes must be between /8 and /32.'],
      [{ ip: '2001:db8::/80', comment: 'c' }, 'IPv6 CIDR prefixes must be between /12 and /64.'],
      [{ ip: 'example.com', comment: 'c' }, 'is not a valid IPv4 or IPv6 address or CIDR.'],
      [{ ip: '1.2.3.4', comment: 'x'.repeat(501) }, 'Comment must be at most 500 characters.'],
    ])('answers 400 for %j and writes nothing', async (payload, message) => {
      const before = cloudflareItems(listId);
      const response = await call(alice, 'POST', `/${listId}/items`, payload);
      expect(response.statusCode).toBe(400);
      expect(refusalOf(response.json())).toContain(message);
      expect(cloudflareItems(listId)).toEqual(before);
    });

    it('adds to a list whose mirror has no table yet, which the add creates', async () => {
      const empty = await syncedList([]);
      const partition = `ban_list_items_${empty.ref}`;
      const exists = async () =>
        (
          await ctx.db.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [
            partition,
          ])
        )[0]!.present;
      expect(await exists()).toBe(false);
      const response = await call(alice, 'POST', `/${empty.listId}/items`, {
        ip: '192.0.2.77',
        comment: 'first',
      });
      expect(response.statusCode).toBe(201);
      expect(await exists()).toBe(true);
      expect(await mirror(empty.ref)).toEqual(cloudflareItems(empty.listId));
    });

    // PGlite's host keeps each statement prepared (db/pglite-statements.ts) until a script runs; an add
    // ran one every time (its table's CREATE ... IF NOT EXISTS), and each statement after it was
    // prepared again. pg_prepared_statements names what the host holds.
    it.runIf(process.env.TEST_DB !== 'postgres')(
      'keeps the database’s prepared statements from one add to the next',
      async () => {
        const prepared = async () =>
          new Map(
            (
              await ctx.db.query<{ name: string; statement: string }>(
                'SELECT name, statement FROM pg_prepared_statements',
              )
            ).map((row) => [row.statement, row.name]),
          );
        const add = async (ip: string) =>
          expect((await call(alice, 'POST', `/${listId}/items`, { ip, comment: 'kept' })).statusCode).toBe(
            201,
          );
        await add('192.0.2.101');
        const before = await prepared();
        await add('192.0.2.102');
        const after = await prepared();
        const insert = [...after.keys()].find((sql) => sql.includes('INSERT INTO ban_list_items'));
        expect(insert).toBeDefined();
        expect(after.get(insert!)).toBe(before.get(insert!));
        const renamed = [...before].filter(([sql, name]) => after.has(sql) && after.get(sql) !== name);
        expect(renamed).toEqual([]);
      },
    );

    it('refuses a duplicate, whether the mirror or only Cloudflare has it', async () => {
      const duplicate = await call(alice, 'POST', `/${listId}/items`, {
        ip: '192.0.2.1/32',
        comment: 'again',
      });
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json().message).toBe('192.0.2.1 is already in this list.');

      ctx.sandbox.control.seedListItems(account.account_id, listId, [
        { ip: '192.0.2.200', comment: 'behind our back' },
      ]);
      const before = await mirror(ref);
      const atCloudflare = await call(alice, 'POST', `/${listId}/items`, {
        ip: '192.0.2.200',
        comment: 'mine',
      });
      expect(atCloudflare.statusCode).toBe(409);
      expect(atCloudflare.json().message).toBe(
        '192.0.2.200 is already in this list at Cloudflare (use Update from Cloudflare to see it).',
      );
      // Cloudflare would have overwritten its comment.
      expect(cloudflareItems(listId)).toContainEqual(
        expect.objectContaining({ ip: '192.0.2.200', comment: 'behind our back' }),
      );
      expect(await mirror(ref)).toEqual(before);
    });

    it('changes nothing locally when Cloudflare fails or refuses the write', async () => {
      const before = await mirror(ref);
      ctx.sandbox.control.injectFault({ method: 'POST', path: /\/items$/, status: 503 });
      const down = await call(alice, 'POST', `/${listId}/items`, { ip: '198.51.100.250', comment: 'x' });
      expect(down.statusCode).toBe(502);
      ctx.sandbox.control.clearFaults();
      expect(await mirror(ref)).toEqual(before);

      // The plan's item quota fails the bulk operation: its reason reaches the person.
      const free = await ctx.addAccount(alice, { name: 'Full Co', plan: 'free' });
      const full = await syncedList(ips(10_000), { owner: free });
      const refused = await call(alice, 'POST', `/${full.listId}/items`, {
        ip: '198.51.100.251',
        comment: 'x',
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe('This list is at the maximum number of items');
      expect((await itemsPage(full.listId)).totalItems).toBe(10_000);
    });

    it('checks values by the kind of list', async () => {
      const hosts = await syncedList([], { kind: 'hostname' });
      const host = await call(alice, 'POST', `/${hosts.listId}/items`, {
        ip: 'API.Example.com',
        comment: 'h',
      });
      expect(host.statusCode).toBe(201);
      expect(host.json().ip).toBe('api.example.com');
      expect(
        (await call(alice, 'POST', `/${hosts.listId}/items`, { ip: 'not a host', comment: 'h' })).json()
          .message,
      ).toBe('"not a host" is not a valid hostname.');
      // Issue 18: this was added as a hostname.
      const address = await call(alice, 'POST', `/${hosts.listId}/items`, { ip: '1.2.3.4', comment: 'h' });
      expect(address.statusCode).toBe(400);
      expect(address.json().message).toBe(
        'A hostname list takes host names such as host.example.com, not IP addresses: add addresses to an IP list.',
      );
      const asns = await syncedList([], { kind: 'asn' });
      expect(
        (await call(alice, 'POST', `/${asns.listId}/items`, { ip: 'AS13335', comment: 'a' })).json().ip,
      ).toBe('13335');
      const redirects = await syncedList([], { kind: 'redirect' });
      const redirect = await call(alice, 'POST', `/${redirects.listId}/items`, {
        ip: 'example.com/old -> https://example.com/new',
        comment: 'r',
      });
      expect(redirect.json().ip).toBe('example.com/old -> https://example.com/new');
    });

    it("answers 404 for another person's list and adds nothing", async () => {
      const before = cloudflareItems(listId);
      expect(
        (await call(bob, 'POST', `/${listId}/items`, { ip: '198.51.100.9', comment: 'x' })).statusCode,
      ).toBe(404);
      expect(cloudflareItems(listId)).toEqual(before);
    });
  });

  describe('delete', () => {
    it('deletes the item at Cloudflare, then from the mirror, and pages stay right around the hole', async () => {
      const { listId, ref } = await syncedList(ips(300));
      const all = (await itemsPage(listId, 'per_page=500')).items;
      for (const item of [all[0]!, all[150]!, all[299]!, all[5]!]) {
        expect((await call(alice, 'DELETE', `/${listId}/items/${item.id}`)).statusCode).toBe(204);
      }
      expect(cloudflareItems(listId)).toHaveLength(296);
      expect(await mirror(ref)).toEqual(cloudflareItems(listId));
      const remaining = all.filter((_, index) => ![0, 150, 299, 5].includes(index));
      for (const page of [1, 2, 3, 4]) {
        expect((await itemsPage(listId, `page=${page}&per_page=80`)).items).toEqual(
          remaining.slice((page - 1) * 80, page * 80),
        );
        expect((await itemsPage(listId, `page=${page}&per_page=80&order=asc`)).items).toEqual(
          [...remaining].reverse().slice((page - 1) * 80, page * 80),
        );
      }
      // A new item gets a new id: the deleted ones are never reused.
      const added = await call(alice, 'POST', `/${listId}/items`, { ip: '198.51.100.1', comment: 'new' });
      expect(added.json().id).toBeGreaterThan(all[0]!.id);
    });

    it("answers 404 for an unknown item or another person's list, 400 for a malformed id; nothing changes", async () => {
      const { listId, ref } = await syncedList(ips(2));
      const [item] = (await itemsPage(listId)).items;
      const before = await mirror(ref);
      expect((await call(bob, 'DELETE', `/${listId}/items/${item!.id}`)).statusCode).toBe(404);
      const unknown = await call(alice, 'DELETE', `/${listId}/items/987654`);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe('Item not found.');
      expect((await call(alice, 'DELETE', `/${listId}/items/x1`)).statusCode).toBe(400);
      expect(await mirror(ref)).toEqual(before);
      expect(cloudflareItems(listId)).toHaveLength(2);
    });

    it('keeps the item when Cloudflare fails', async () => {
      const { listId, ref } = await syncedList(ips(2));
      const [item] = (await itemsPage(listId)).items;
      ctx.sandbox.control.injectFault({ method: 'DELETE', path: /\/items$/, status: 500 });
      expect((await call(alice, 'DELETE', `/${listId}/items/${item!.id}`)).statusCode).toBe(502);
      ctx.sandbox.control.clearFaults();
      expect(await mirror(ref)).toEqual(cloudflareItems(listId));
      expect(await mirror(ref)).toHaveLength(2);
    });
  });
});

describe('building a loaded list’s indexes', () => {
  /** The most index builds the repository had in line at once. */
  async function mostAtOnce(lanes: 1 | 2): Promise<number> {
    let inLine = 0;
    let most = 0;
    const db: Queryable = {
      query: async <T>() => [] as T[],
      copyIn: async () => undefined,
      exec: async (sql: string) => {
        if (!sql.startsWith('CREATE INDEX')) return;
        most = Math.max(most, ++inLine);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inLine--;
      },
    };
    await new BanListItemsRepository(db).indexLoad(1, { lanes });
    return most;
  }

  // Mirror sync asks one lane of PGlite (its one connection would hold the second build in line before
  // everyone) and two of PostgreSQL (which builds them on two connections).
  it('sends them one at a time in one lane', async () => {
    expect(await mostAtOnce(1)).toBe(1);
  });

  it('sends two at a time in two lanes', async () => {
    expect(await mostAtOnce(2)).toBe(2);
  });
});
