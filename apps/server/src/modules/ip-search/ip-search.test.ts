import { IP_SEARCH_MATCHES_MAX, type IpSearchAnswer } from '@guardian/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../db';
import { createCloudflareTestContext, type CloudflareTestContext } from '../../test/cloudflare-context';
import type { TestUser } from '../../test/context';
import { IpSearchService, parseSearch } from './ip-search.service';
import { countingDb } from '../../test/counting-db';

type Account = Awaited<ReturnType<CloudflareTestContext['addAccount']>>;

describe('where is this address? (GET /api/cloudflare/ip-search)', () => {
  let ctx: CloudflareTestContext;
  let alice: TestUser;
  let bob: TestUser;
  let aliceOne: Account;
  let aliceTwo: Account;
  let bobs: Account;
  const listIds: Record<string, string> = {};

  async function list(
    owner: Account,
    user: TestUser,
    name: string,
    kind: 'ip' | 'hostname' | 'asn',
    items: Record<string, unknown>[],
  ) {
    const created = ctx.sandbox.control.addList(owner.account_id, { name, kind });
    ctx.sandbox.control.seedListItems(owner.account_id, created.id, items);
    listIds[name] = created.id;
    return created.id;
  }

  async function pullAndSync(user: TestUser, names: string[]) {
    const update = await ctx.app.inject({
      method: 'POST',
      url: '/api/cloudflare/banlists/update',
      headers: user.headers,
    });
    expect(update.statusCode).toBe(200);
    for (const name of names) {
      const sync = await ctx.app.inject({
        method: 'POST',
        url: `/api/cloudflare/banlists/${listIds[name]}/sync`,
        headers: user.headers,
      });
      expect(sync.statusCode).toBe(200);
    }
  }

  beforeAll(async () => {
    ctx = await createCloudflareTestContext();
    alice = await ctx.createUser();
    bob = await ctx.createUser();
    aliceOne = await ctx.addAccount(alice, { name: 'Alice One' });
    aliceTwo = await ctx.addAccount(alice, { name: 'Alice Two' });
    bobs = await ctx.addAccount(bob, { name: 'Bob Co' });
    await list(aliceOne, alice, 'edge', 'ip', [
      { ip: '203.0.113.7', comment: 'exact v4' },
      { ip: '203.0.113.0/24', comment: '=cmd|calc' },
      { ip: '203.0.0.0/16', comment: 'wide v4' },
      { ip: '198.51.100.1', comment: 'other v4' },
      { ip: '2001:db8::1', comment: 'exact v6' },
      { ip: '2001:db8::/32', comment: 'wide v6' },
      { ip: '2001:db8:1::/48', comment: 'narrow v6' },
    ]);
    await list(aliceTwo, alice, 'second', 'ip', [
      { ip: '203.0.113.7', comment: 'in the second account' },
      { ip: '10.0.0.0/8', comment: 'ten' },
    ]);
    // 600 addresses in 172.16.0.0/16: more than one answer holds.
    await list(aliceTwo, alice, 'many', 'ip', [
      ...Array.from({ length: 600 }, (_, i) => ({ ip: `172.16.${i >> 8}.${i & 255}`, comment: `m${i}` })),
    ]);
    await list(aliceOne, alice, 'hosts', 'hostname', [
      { hostname: { url_hostname: 'bad.example.com' }, comment: 'phishing' },
    ]);
    await list(aliceOne, alice, 'asns', 'asn', [{ asn: 64512, comment: 'private asn' }]);
    await pullAndSync(alice, ['edge', 'second', 'many', 'hosts', 'asns']);
    await list(bobs, bob, 'bobs', 'ip', [
      { ip: '203.0.113.7', comment: "bob's secret" },
      { ip: '2001:db8::1', comment: "bob's v6" },
    ]);
    await list(bobs, bob, 'bob_hosts', 'hostname', [
      { hostname: { url_hostname: 'bad.example.com' }, comment: "bob's host" },
    ]);
    await pullAndSync(bob, ['bobs', 'bob_hosts']);
  });
  afterAll(() => ctx.close());

  const search = (q: string, user = alice) =>
    ctx.app.inject({
      method: 'GET',
      url: `/api/cloudflare/ip-search?${new URLSearchParams({ q })}`,
      headers: user.headers,
    });
  const answer = async (q: string, user = alice) => {
    const response = await search(q, user);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<IpSearchAnswer>();
  };
  /** Every match as list:value:relation, in the answer's order (its lists', then each list's). */
  const found = (a: IpSearchAnswer) =>
    a.lists.flatMap((l) => l.matches.map((m) => `${l.list_name}:${m.ip}:${m.relation}`));
  const matchCount = (a: IpSearchAnswer) => a.lists.reduce((sum, l) => sum + l.matches.length, 0);

  it('an IPv4 address finds the items holding it exactly or in a CIDR, across accounts', async () => {
    const a = await answer('203.0.113.7');
    expect(a.query).toEqual({ kind: 'address', value: '203.0.113.7' });
    expect(found(a).sort()).toEqual(
      [
        'edge:203.0.113.7:exact',
        'second:203.0.113.7:exact',
        'edge:203.0.113.0/24:contains',
        'edge:203.0.0.0/16:contains',
      ].sort(),
    );
    // Each list named once, where its first match falls; in a list, the exact item first, then the
    // narrowest CIDR holding it.
    expect(a.lists.map((l) => l.list_name)).toEqual(['edge', 'second']);
    expect(a.lists[0]!.matches.map((m) => m.ip)).toEqual(['203.0.113.7', '203.0.113.0/24', '203.0.0.0/16']);
    const second = a.lists[1]!;
    expect(second).toMatchObject({
      account_name: 'Alice Two',
      account_id: aliceTwo.account_id,
      list_id: listIds.second,
      kind: 'ip',
      matches: [{ ip: '203.0.113.7', comment: 'in the second account', relation: 'exact' }],
    });
    expect(new Date(second.matches[0]!.created_on).toString()).not.toBe('Invalid Date');
    expect(a.lists_searched).toBe(3);
    expect(a.truncated).toBe(false);
  });

  it('other people’s lists are never found', async () => {
    for (const q of ['203.0.113.7', '2001:db8::1', '0.0.0.0/0', '::/0', 'bad.example.com']) {
      const a = await answer(q);
      expect(a.lists.some((l) => l.matches.some((m) => m.comment.startsWith('bob')))).toBe(false);
      expect(a.lists.some((l) => l.account_id === bobs.account_id)).toBe(false);
    }
    // Bob sees his own, and only his own.
    const b = await answer('203.0.113.7', bob);
    expect(found(b)).toEqual(['bobs:203.0.113.7:exact']);
    expect(b.lists_searched).toBe(1);
  });

  it('a CIDR finds the items inside it and the CIDRs that hold it', async () => {
    const a = await answer('203.0.113.0/24');
    expect(a.query).toEqual({ kind: 'cidr', value: '203.0.113.0/24' });
    expect(found(a)).toEqual([
      'edge:203.0.113.0/24:exact',
      'edge:203.0.0.0/16:contains',
      'edge:203.0.113.7:within',
      'second:203.0.113.7:within',
    ]);
    // Host bits are cleared as the Add dialog clears them.
    expect((await answer('203.0.113.99/24')).query.value).toBe('203.0.113.0/24');
  });

  it('edge prefixes: /0 holds every address of its family, /32 and /128 are single addresses', async () => {
    const v4 = await answer('0.0.0.0/0');
    expect(v4.query).toEqual({ kind: 'cidr', value: '0.0.0.0/0' });
    expect(matchCount(v4)).toBe(IP_SEARCH_MATCHES_MAX);
    expect(v4.truncated).toBe(true);
    expect(v4.lists.every((l) => l.matches.every((m) => !m.ip.includes(':')))).toBe(true);
    // In address order: 10.0.0.0/8 comes first, so its list does; each list once.
    expect(v4.lists[0]!.matches[0]!.ip).toBe('10.0.0.0/8');
    expect(v4.lists[0]!.list_name).toBe('second');
    const names = v4.lists.map((l) => l.list_name);
    expect(new Set(names).size).toBe(names.length);

    const v6 = await answer('::/0');
    expect(found(v6)).toEqual([
      'edge:2001:db8::/32:within',
      'edge:2001:db8::1:within',
      'edge:2001:db8:1::/48:within',
    ]);

    const slash32 = await answer('203.0.113.7/32');
    expect(slash32.query).toEqual({ kind: 'address', value: '203.0.113.7' });
    expect(found(slash32)).toEqual(found(await answer('203.0.113.7')));

    const slash128 = await answer('2001:DB8:0::1/128');
    expect(slash128.query).toEqual({ kind: 'address', value: '2001:db8::1' });
    expect(found(slash128)).toEqual(['edge:2001:db8::1:exact', 'edge:2001:db8::/32:contains']);
  });

  it('IPv6: an address inside a /48 and a /32, a CIDR inside the /32', async () => {
    expect(found(await answer('2001:db8:1::abcd'))).toEqual([
      'edge:2001:db8:1::/48:contains',
      'edge:2001:db8::/32:contains',
    ]);
    expect(found(await answer('2001:db8::/33'))).toEqual([
      'edge:2001:db8::/32:contains',
      'edge:2001:db8::1:within',
      'edge:2001:db8:1::/48:within',
    ]);
    expect((await answer('2001:0db8:0000::0001')).query.value).toBe('2001:db8::1');
  });

  it('bounds the answer at IP_SEARCH_MATCHES_MAX and says there are more', async () => {
    const a = await answer('172.16.0.0/16');
    // One list holds them all: named once, its 500 matches in address order.
    expect(a.lists.map((l) => l.list_name)).toEqual(['many']);
    expect(matchCount(a)).toBe(IP_SEARCH_MATCHES_MAX);
    expect(a.truncated).toBe(true);
    expect(a.lists[0]!.matches.slice(0, 3).map((m) => m.ip)).toEqual([
      '172.16.0.0',
      '172.16.0.1',
      '172.16.0.2',
    ]);
    const narrower = await answer('172.16.1.0/24');
    expect(matchCount(narrower)).toBe(256);
    expect(narrower.truncated).toBe(false);
  });

  it('a hostname or an AS number is found where it is listed (exact value)', async () => {
    const host = await answer('BAD.example.com');
    expect(host.query).toEqual({ kind: 'hostname', value: 'bad.example.com' });
    expect(found(host)).toEqual(['hosts:bad.example.com:exact']);
    expect(found(await answer('example.com'))).toEqual([]);
    const asn = await answer('AS64512');
    expect(asn.query).toEqual({ kind: 'asn', value: '64512' });
    expect(found(asn)).toEqual(['asns:64512:exact']);
    expect(found(await answer('64512'))).toEqual(['asns:64512:exact']);
  });

  it('answers an empty result when nothing matches, with how many lists it looked in', async () => {
    const a = await answer('192.0.2.1');
    expect(a).toMatchObject({ lists: [], truncated: false, lists_searched: 3 });
  });

  it.each([
    ['', 'Enter an IP address, CIDR, hostname or AS number.'],
    ['   ', 'Enter an IP address, CIDR, hostname or AS number.'],
    ['10.0.0.256', '"10.0.0.256" is not a valid IPv4 or IPv6 address or CIDR.'],
    ['10.0.0.0/33', '"10.0.0.0/33" is not a valid IPv4 or IPv6 address or CIDR.'],
    ['2001:db8::/129', '"2001:db8::/129" is not a valid IPv4 or IPv6 address or CIDR.'],
    ['fe80::1%eth0', '"fe80::1%eth0" is not an IP address, CIDR, hostname or AS number.'],
    ['1.2.3', '"1.2.3" is not a valid IPv4 or IPv6 address or CIDR.'],
    ['AS99999999999', '"AS99999999999" is not a valid AS number.'],
    ['not a host!', '"not a host!" is not an IP address, CIDR, hostname or AS number.'],
    ['x'.repeat(256), 'The search must be at most 255 characters.'],
  ])('refuses %j with a 400 that says why', async (q, message) => {
    const response = await search(q);
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toContain(message);
  });

  it('keeps an answer while the person’s lists stay as they were, and answers anew once one changes', async () => {
    const { db: counted, statements } = countingDb(ctx.db);
    const addItem = async (ip: string) => {
      const added = await ctx.app.inject({
        method: 'POST',
        url: `/api/cloudflare/banlists/${listIds.edge}/items`,
        headers: alice.headers,
        payload: { ip, comment: 'added later' },
      });
      expect(added.statusCode, added.body).toBeLessThan(300);
    };
    // This process's list writes, as OwnedLists counts them.
    const access = { changes: 0 };
    const service = new IpSearchService(counted, access, { enabled: true });
    const searched = async (q: string, by = service) =>
      JSON.parse(await by.searchJson(alice.id, q)) as IpSearchAnswer;
    const before = await searched('192.0.2.55');
    expect(before.lists).toEqual([]);
    statements.length = 0;
    expect(await searched('192.0.2.55')).toEqual(before);
    // Nothing read: neither the lists' version (kept for a second) nor any list's items.
    expect(statements).toHaveLength(0);
    // A write of this process: the next search sees it at once.
    await addItem('192.0.2.55');
    access.changes += 1;
    expect(found(await searched('192.0.2.55'))).toEqual(['edge:192.0.2.55:exact']);
    // A write this process did not count (another server process's): seen once the second has passed.
    expect((await searched('192.0.2.56')).lists).toEqual([]);
    await addItem('192.0.2.56');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(found(await searched('192.0.2.56'))).toEqual(['edge:192.0.2.56:exact']);
    // With the answer caches off every search reads the lists.
    const uncached = new IpSearchService(counted, access, { enabled: false });
    await searched('192.0.2.55', uncached);
    statements.length = 0;
    await searched('192.0.2.55', uncached);
    expect(statements.some((sql) => sql.includes('ip_search_holding'))).toBe(true);
  });

  it('tells which of the person’s lists hold each of many addresses in one statement (a report’s top addresses)', async () => {
    const { db: counted, statements } = countingDb(ctx.db);
    const service = new IpSearchService(counted, { changes: 0 }, { enabled: false });
    const addresses = [
      '203.0.113.7',
      '2001:db8:1::5',
      '10.1.2.3',
      '192.0.2.200',
      'not an address',
      '10.0.0.0/8',
    ];
    const holding = await service.listsHolding(alice.id, addresses, 5);
    const named = (address: string) => (holding.get(address) ?? []).map((l) => l.listName);
    // Exact items and CIDRs holding the address, in each list once (the exact one's list first).
    expect(named('203.0.113.7')).toEqual(['edge', 'second']);
    expect(named('2001:db8:1::5')).toEqual(['edge']);
    expect(named('10.1.2.3')).toEqual(['second']);
    expect(holding.get('10.1.2.3')).toEqual([
      { accountId: aliceTwo.account_id, listId: listIds.second, listName: 'second' },
    ]);
    // In none of Alice's lists (Bob's are never read); what is not one address holds nothing.
    expect(named('192.0.2.200')).toEqual([]);
    expect(named('not an address')).toEqual([]);
    expect(named('10.0.0.0/8')).toEqual([]);
    expect([...holding.keys()].sort()).toEqual([...addresses].sort());
    // At most `perAddress` lists each.
    expect((await service.listsHolding(alice.id, ['203.0.113.7'], 1)).get('203.0.113.7')).toHaveLength(1);
    // The lists once and the items of every address in one statement, not one per address.
    statements.length = 0;
    await service.listsHolding(alice.id, addresses, 5);
    expect(statements.filter((sql) => sql.includes('ip_search_holding'))).toHaveLength(1);
    expect(statements).toHaveLength(2);
  });

  it('needs a signed-in person', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/cloudflare/ip-search?q=10.0.0.1' });
    expect(response.statusCode).toBe(401);
  });

  it('reads the person’s lists through their indexes in the search functions’ kept plans', async () => {
    const refs = (
      await ctx.db.query<{ id: number }>(
        `SELECT bl.id FROM ban_lists bl JOIN cloudflare_accounts a ON a.id = bl.account_ref
         WHERE a.user_id = $1 AND bl.kind = 'ip'`,
        [alice.id],
      )
    ).map((row) => row.id);
    /** The statement a search function runs (migration 025), its arguments as parameters, planned as it keeps it. */
    const planOf = async (tx: Queryable, fn: string, argument: string, value: string) => {
      const [row] = await tx.query<{ body: string }>(
        `SELECT prosrc AS body FROM pg_proc WHERE proname = $1`,
        [fn],
      );
      const statement = /RETURN QUERY([\s\S]*?);\s*END/
        .exec(row!.body)![1]!
        .replace(/\brefs\b/g, '$1')
        .replace(new RegExp(`\\b${argument}\\b`, 'g'), '$2')
        .replace(/\bwanted\b/g, '$3');
      await tx.query(`PREPARE searched (bigint[], inet, int) AS ${statement}`);
      try {
        // The kept plan names every list's partition: `= ANY($1)` with an array parameter prunes none
        // (PostgreSQL prunes by an array only when it is a constant); the index conditions read none
        // of another person's items.
        const rows = await tx.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (COSTS OFF) EXECUTE searched ('{${refs.join(',')}}', '${value}', 501)`,
        );
        return rows.map((line) => line['QUERY PLAN']).join('\n');
      } finally {
        await tx.query('DEALLOCATE searched');
      }
    };
    const plans = await ctx.db.transaction(async (tx) => {
      // Lists of a few items are best read whole: 2,000 addresses more in each of Alice's ip lists
      // (outside every range searched) make their indexes worth using, as in a real list.
      await tx.query(
        `INSERT INTO ban_list_items (ban_list_ref, id, item_id, ip, comment, created_on, ip_sort)
         SELECT ref, 1000000 + n, 'plan-' || n, host(address), '', now(), address
         FROM unnest($1::bigint[]) AS ref, generate_series(0, 1999) AS n,
              LATERAL (SELECT '198.18.0.0'::inet + n AS address) AS item`,
        [refs],
      );
      await tx.query('ANALYZE ban_list_items');
      await tx.query('SET LOCAL plan_cache_mode = force_generic_plan');
      // What is proven is that the statements can read each list through its indexes; whether the
      // planner prefers a scan of a list this small depends on its statistics of the moment. A
      // condition no index can serve still plans as a scan.
      await tx.query('SET LOCAL enable_seqscan = off');
      return {
        holding: await planOf(tx, 'ip_search_holding', 'address', '203.0.113.7'),
        within: await planOf(tx, 'ip_search_within', 'cidr', '203.0.113.0/24'),
      };
    });
    /** The indexes a plan reads, with the partition (list) each belongs to: this test's schema only (others run at once). */
    const indexesOf = async (plan: string) => {
      const names = [...plan.matchAll(/Index (?:Only )?Scan (?:using|on) (\S+)/g)].map((match) => match[1]!);
      return ctx.db.query<{ list: string; method: string; definition: string }>(
        `SELECT t.relname AS list, am.amname AS method, pg_get_indexdef(c.oid) AS definition
         FROM pg_class c JOIN pg_am am ON am.oid = c.relam JOIN pg_index x ON x.indexrelid = c.oid
         JOIN pg_class t ON t.oid = x.indrelid
         WHERE c.relname = ANY($1::text[]) AND c.relnamespace = current_schema()::regnamespace`,
        [names],
      );
    };
    const holding = await indexesOf(plans.holding);
    const within = await indexesOf(plans.within);
    for (const ref of refs) {
      const list = `ban_list_items_${ref}`;
      // Holding: each of Alice's ip lists through its CIDR items' GiST index (`>>`) and its address
      // btree (`=`), never a read of the whole list.
      const gist = holding.filter((index) => index.list === list && index.method === 'gist');
      expect(gist, plans.holding).toHaveLength(1);
      expect(gist[0]!.definition).toMatch(/WHERE \(?masklen\(ip_sort\)/);
      expect(
        holding.some((index) => index.list === list && index.method === 'btree'),
        plans.holding,
      ).toBe(true);
      // Within: the btree of the address order, read as a range.
      expect(
        within.filter((index) => index.list === list).map((index) => index.method),
        plans.within,
      ).toEqual(['btree']);
      for (const plan of [plans.holding, plans.within])
        expect(plan).not.toMatch(new RegExp(`Seq Scan on ${list} `));
    }
    expect(plans.within).toMatch(/ip_sort >= /);
  });
});

describe('parseSearch', () => {
  it('reads addresses, CIDRs, AS numbers and hostnames as the Add dialog does', () => {
    expect(parseSearch(' 10.1.2.3 ')).toEqual({ kind: 'address', value: '10.1.2.3' });
    expect(parseSearch('10.1.2.3/8')).toEqual({ kind: 'cidr', value: '10.0.0.0/8' });
    expect(parseSearch('::ffff:1.2.3.4')).toEqual({ kind: 'address', value: '::ffff:102:304' });
    expect(parseSearch('as 13335')).toEqual({ kind: 'asn', value: '13335' });
    expect(parseSearch('*.Example.com')).toEqual({ kind: 'hostname', value: '*.example.com' });
    expect(parseSearch('010.0.0.1')).toMatch(/not a valid/);
  });
});
