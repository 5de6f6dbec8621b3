import type { ZonesPage, ZonesQuery } from '@guardian/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCloudflareTestContext, type CloudflareTestContext } from '../../test/cloudflare-context';
import type { TestUser } from '../../test/context';
import { rowsEstimatedFor } from '../../test/plans';

/** GET /api/cloudflare/zones/page: the zones screen's one page, searched and sorted by the server. */
describe('GET /api/cloudflare/zones/page', () => {
  let ctx: CloudflareTestContext;

  beforeAll(async () => (ctx = await createCloudflareTestContext()));
  afterAll(() => ctx.close());
  afterEach(() => vi.restoreAllMocks());

  const pageOf = (user: TestUser, query: ZonesQuery = {}) =>
    ctx.app.inject({
      method: 'GET',
      url: '/api/cloudflare/zones/page',
      query: Object.fromEntries(Object.entries(query).map(([key, value]) => [key, String(value)])),
      headers: user.headers,
    });
  const zonesPage = async (user: TestUser, query: ZonesQuery = {}): Promise<ZonesPage> => {
    const response = await pageOf(user, query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const domains = (page: ZonesPage) => page.zones.map((zone) => zone.domain);

  /** A person with accounts named `names` (made unique), each holding the zones given, synced. */
  async function personWith(accounts: Record<string, [domain: string, status?: 'pending' | 'active'][]>) {
    const user = await ctx.createUser();
    const added = [];
    for (const [name, zones] of Object.entries(accounts)) {
      const account = await ctx.addAccount(user, { name: `${name} ${user.id}` });
      for (const [domain, status] of zones)
        ctx.sandbox.control.addZone(account.account_id, domain, status ? { status } : {});
      added.push(account);
    }
    const sync = await ctx.app.inject({
      method: 'POST',
      url: '/api/cloudflare/zones/sync',
      headers: user.headers,
    });
    expect(sync.statusCode, sync.body).toBe(200);
    return { user, accounts: added };
  }

  it('pages the zones by domain ascending, 50 a page, with the number of zones in all pages', async () => {
    const names = Array.from({ length: 120 }, (_, i) => `site-${String(i).padStart(3, '0')}.com`);
    const { user, accounts } = await personWith({
      One: names.slice(0, 60).map((d) => [d]),
      Two: names.slice(60).map((d) => [d]),
    });

    const first = await zonesPage(user);
    expect(first.totalZones).toBe(120);
    expect(domains(first)).toEqual(names.slice(0, 50));
    const [zone] = first.zones;
    expect(zone).toEqual({
      id: expect.any(String),
      domain: 'site-000.com',
      accountName: accounts[0]!.account_name,
      account_id: accounts[0]!.account_id,
      status: 'pending',
      name_servers: expect.any(Array),
    });
    expect(domains(await zonesPage(user, { page: 3 }))).toEqual(names.slice(100));
    // Past the last page: no rows, the count still said.
    expect(await zonesPage(user, { page: 4 })).toEqual({ zones: [], totalZones: 120 });
    expect(domains(await zonesPage(user, { page: 2, per_page: 7 }))).toEqual(names.slice(7, 14));
  });

  it('sorts by each column both ways, ties by domain, and the pages never overlap', async () => {
    const { user, accounts } = await personWith({
      beta: [
        ['b.com', 'active'],
        ['d.com', 'pending'],
        ['f.com', 'pending'],
      ],
      Alpha: [
        ['a.com', 'pending'],
        ['c.com', 'active'],
        ['e.com', 'active'],
      ],
    });
    const [beta, alpha] = accounts;
    expect(domains(await zonesPage(user, { order: 'desc' }))).toEqual([
      'f.com',
      'e.com',
      'd.com',
      'c.com',
      'b.com',
      'a.com',
    ]);
    // Account names without case: "Alpha ..." before "beta ...".
    const byAccount = await zonesPage(user, { sort: 'accountName' });
    expect(byAccount.zones.map((zone) => [zone.accountName, zone.domain])).toEqual([
      [alpha!.account_name, 'a.com'],
      [alpha!.account_name, 'c.com'],
      [alpha!.account_name, 'e.com'],
      [beta!.account_name, 'b.com'],
      [beta!.account_name, 'd.com'],
      [beta!.account_name, 'f.com'],
    ]);
    expect(domains(await zonesPage(user, { sort: 'accountName', order: 'desc' }))).toEqual([
      'f.com',
      'd.com',
      'b.com',
      'e.com',
      'c.com',
      'a.com',
    ]);
    const byStatus = ['b.com', 'c.com', 'e.com', 'a.com', 'd.com', 'f.com'];
    expect(domains(await zonesPage(user, { sort: 'status' }))).toEqual(byStatus);
    expect(domains(await zonesPage(user, { sort: 'status', order: 'desc' }))).toEqual(byStatus.toReversed());

    const paged = [];
    for (let page = 1; page <= 3; page++)
      paged.push(...domains(await zonesPage(user, { sort: 'status', page, per_page: 2 })));
    expect(paged).toEqual(byStatus);
  });

  it('searches domains and account names, without case, trimmed, and counts the matches', async () => {
    const { user } = await personWith({
      Shop: [['shop-one.com'], ['other.net']],
      Blog: [['my-blog.org'], ['SHOPPING-news.io'.toLowerCase()]],
    });
    const found = await zonesPage(user, { search: '  SHOP ' });
    expect(domains(found)).toEqual(['other.net', 'shop-one.com', 'shopping-news.io']);
    expect(found.totalZones).toBe(3);
    expect(domains(await zonesPage(user, { search: 'blog' }))).toEqual(['my-blog.org', 'shopping-news.io']);
    // A LIKE wildcard is a plain character, in a search of trigrams as in a shorter one.
    expect(await zonesPage(user, { search: '%' })).toEqual({ zones: [], totalZones: 0 });
    expect(await zonesPage(user, { search: 'shop_one' })).toEqual({ zones: [], totalZones: 0 });
    expect(await zonesPage(user, { search: 'my%blog' })).toEqual({ zones: [], totalZones: 0 });
    expect(await zonesPage(user, { search: '\\shop' })).toEqual({ zones: [], totalZones: 0 });
    expect(domains(await zonesPage(user, { search: 'P-O' }))).toEqual(['shop-one.com']);
    expect(domains(await zonesPage(user, { search: 'OG' }))).toEqual(['my-blog.org', 'shopping-news.io']);
    expect(domains(await zonesPage(user, { search: '.o' }))).toEqual(['my-blog.org']);
    expect((await zonesPage(user, { search: '' })).totalZones).toBe(4);
  });

  it('never shows a person the zones of another', async () => {
    const first = await personWith({ Mine: [['mine-only.com']] });
    const second = await personWith({ Theirs: [['theirs.com']] });
    expect(await zonesPage(second.user, { search: 'mine' })).toEqual({ zones: [], totalZones: 0 });
    expect(domains(await zonesPage(second.user))).toEqual(['theirs.com']);
    expect(domains(await zonesPage(first.user))).toEqual(['mine-only.com']);
  });

  it('answers a page in one database statement, rows and count together', async () => {
    const { user } = await personWith({
      Counted: Array.from({ length: 60 }, (_, i) => [`counted-${i}.com`]),
    });
    const queries = vi.spyOn(ctx.db, 'query');
    const page = await zonesPage(user, { page: 2, sort: 'status', search: 'counted' });
    expect(page.zones).toHaveLength(10);
    expect(page.totalZones).toBe(60);
    // The auth guard's lookup apart (sessions), every statement of the request.
    const ofRequest = queries.mock.calls.filter(([sql]) => /zones/.test(sql));
    expect(ofRequest).toHaveLength(1);
  });

  it('serves a page asked again from memory, and a changed mirror at once', async () => {
    const { user, accounts } = await personWith({ Kept: [['kept-1.com'], ['kept-2.com']] });
    const queries = vi.spyOn(ctx.db, 'query');
    const zoneStatements = () => queries.mock.calls.filter(([sql]) => /zone_list_versions/.test(sql));
    expect(domains(await zonesPage(user, { search: 'kept' }))).toEqual(['kept-1.com', 'kept-2.com']);
    expect(zoneStatements()).toHaveLength(1);
    queries.mockClear();
    expect(domains(await zonesPage(user, { search: 'kept' }))).toEqual(['kept-1.com', 'kept-2.com']);
    expect(zoneStatements()).toHaveLength(0);
    // Another page is an answer of its own.
    expect(domains(await zonesPage(user, { search: 'kept-2' }))).toEqual(['kept-2.com']);
    expect(zoneStatements()).toHaveLength(1);

    ctx.sandbox.control.addZone(accounts[0]!.account_id, 'kept-3.com');
    const sync = await ctx.app.inject({
      method: 'POST',
      url: '/api/cloudflare/zones/sync',
      headers: user.headers,
    });
    expect(sync.statusCode, sync.body).toBe(200);
    const page = await zonesPage(user, { search: 'kept' });
    expect(domains(page)).toEqual(['kept-1.com', 'kept-2.com', 'kept-3.com']);
    expect(page.totalZones).toBe(3);
  });

  it.each<[Record<string, string>, string]>([
    [{ page: '0' }, 'page must be 1 or more.'],
    [{ page: 'two' }, 'page must be a number.'],
    [{ per_page: '201' }, 'per_page must be at most 200.'],
    [{ sort: 'zone_id' }, 'sort must be one of domain, accountName, status.'],
    [{ order: 'up' }, 'order must be asc or desc.'],
    [{ search: 'x'.repeat(254) }, 'The search must be at most 253 characters.'],
  ])('refuses a bad query %j with 400 and says why', async (query, message) => {
    const user = await ctx.createUser();
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/cloudflare/zones/page',
      query,
      headers: user.headers,
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(message);
  });

  it("plans a person's zones by their number once a sync has filled the mirror", async () => {
    const { user } = await personWith({
      Shops: Array.from({ length: 400 }, (_, i) => [`shop-${String(i).padStart(4, '0')}.com`]),
    });
    // PGlite runs no autovacuum (PostgreSQL's takes up to a minute): planned with the statistics of
    // the table before the sync, the person's 400 zones were estimated at 3, and a search walked the
    // owner's index to read them all, at half the rate of a plain scan (bench: zones search, cold).
    expect(
      await rowsEstimatedFor(ctx.db, 'SELECT 1 FROM zones WHERE user_id = $1', [user.id]),
    ).toBeGreaterThan(200);
  });

  it('refuses a caller who is not signed in', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/cloudflare/zones/page' });
    expect(response.statusCode).toBe(401);
  });
});
