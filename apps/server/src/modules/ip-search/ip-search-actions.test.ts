import {
  ipSearchEndpoints,
  listCapacityEndpoints,
  type CapacityAnswer,
  type IpSearchActionAnswer,
  type IpSearchAnswer,
  type IpSearchJobResult,
  type Job,
} from '@guardian/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CloudflareTestContext } from '../../test/cloudflare-context';
import type { TestUser } from '../../test/context';
import { requestTo } from '../../test/request';
import { twoPeopleSuite, type TwoPeople } from '../../test/two-people';

type Account = Awaited<ReturnType<CloudflareTestContext['addAccount']>>;

/**
 * The IP search's actions: Ban everywhere (a job per account, one account's failure named while the
 * others finish), Remove from lists, and the accounts' Lists capacity; every new route only for the
 * person's own lists and accounts.
 */
describe('Ban everywhere, Remove from lists and capacity (IP search)', () => {
  let { ctx, alice, bob } = {} as TwoPeople;
  twoPeopleSuite((suite) => ({ ctx, alice, bob } = suite));
  let one: Account;
  let two: Account;
  let bobs: Account;
  const ids: Record<string, string> = {};

  async function finished(user: TestUser, url: string) {
    const answer = await ctx.app.inject({ method: 'POST', url, headers: user.headers });
    if (answer.statusCode === 202) await ended(user, answer.json<Job>().id);
    else expect(answer.statusCode).toBe(200);
  }

  async function ended(user: TestUser, id: string): Promise<Job> {
    for (let i = 0; i < 400; i++) {
      const job = (
        await ctx.app.inject({ method: 'GET', url: `/api/jobs/${id}`, headers: user.headers })
      ).json<Job>();
      if (['succeeded', 'failed', 'cancelled'].includes(job.state)) return job;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`job ${id} did not end`);
  }

  /** Every part's job once ended. */
  async function outcome(user: TestUser, answer: IpSearchActionAnswer) {
    return Promise.all(answer.parts.map(async (part) => ({ ...part, job: await ended(user, part.job.id) })));
  }

  async function list(owner: Account, user: TestUser, name: string, items: Record<string, unknown>[] = []) {
    const created = ctx.sandbox.control.addList(owner.account_id, { name, kind: 'ip' });
    if (items.length > 0) ctx.sandbox.control.seedListItems(owner.account_id, created.id, items);
    ids[name] = created.id;
    await finished(user, '/api/cloudflare/banlists/update');
    await finished(user, `/api/cloudflare/banlists/${created.id}/sync`);
  }

  const call = (
    user: TestUser,
    endpoint: typeof ipSearchEndpoints.ban | typeof ipSearchEndpoints.remove,
    payload: unknown,
  ) => ctx.app.inject({ ...requestTo(endpoint, { payload }), headers: user.headers });
  const search = async (user: TestUser, q: string) =>
    (
      await ctx.app.inject({
        ...requestTo(ipSearchEndpoints.search, { query: { q } }),
        headers: user.headers,
      })
    ).json<IpSearchAnswer>();
  const valuesAt = (owner: Account, name: string) =>
    ctx.sandbox.control.getListItems(owner.account_id, ids[name]!).map((item) => String(item.ip));
  const writesAt = () =>
    ctx.sandbox.control.callLog({ path: /\/items$/ }).filter((entry) => entry.method !== 'GET').length;

  beforeAll(async () => {
    one = await ctx.addAccount(alice, { name: 'Alice One' });
    two = await ctx.addAccount(alice, { name: 'Alice Two', plan: 'pro' });
    bobs = await ctx.addAccount(bob, { name: 'Bob Co' });
    await list(one, alice, 'one_a', [{ ip: '192.0.2.9', comment: 'old' }]);
    await list(one, alice, 'one_b');
    await list(two, alice, 'two_a', [{ ip: '198.51.100.0/24', comment: 'a range' }]);
    await list(bobs, bob, 'bob_a', [{ ip: '192.0.2.9', comment: 'bob' }]);
  });

  it('bans an address in the chosen lists of two accounts: one job per account, attributed, with its expiry', async () => {
    const answer = await call(alice, ipSearchEndpoints.ban, {
      value: '203.0.113.50',
      comment: 'scanner',
      list_ids: [ids.one_a, ids.one_b, ids.two_a],
      expires: '1d',
    });
    expect([200, 202]).toContain(answer.statusCode);
    const parts = await outcome(alice, answer.json<IpSearchActionAnswer>());
    expect(parts.map((part) => part.account_name)).toEqual(['Alice One', 'Alice Two']);
    expect(parts.map((part) => part.lists.map((l) => l.list_name))).toEqual([['one_a', 'one_b'], ['two_a']]);
    for (const part of parts) {
      expect(part.job.state).toBe('succeeded');
      expect(part.job.kind).toBe('ban-everywhere');
      expect(part.job.account_name).toBe(part.account_name);
    }
    expect((parts[0]!.job.result as IpSearchJobResult).lists.map((l) => l.outcome)).toEqual([
      'added',
      'added',
    ]);
    expect(valuesAt(one, 'one_a')).toContain('203.0.113.50');
    expect(valuesAt(one, 'one_b')).toContain('203.0.113.50');
    expect(valuesAt(two, 'two_a')).toContain('203.0.113.50');

    const found = await search(alice, '203.0.113.50');
    expect(found.lists.map((list) => list.list_name).sort()).toEqual(['one_a', 'one_b', 'two_a']);
    for (const match of found.lists.flatMap((list) => list.matches)) {
      expect(match.added_via).toBe('console');
      expect(match.added_by).toBe(alice.email);
      const left = Date.parse(match.expires_at!) - Date.now();
      expect(left).toBeGreaterThan(86_400_000 - 120_000);
      expect(left).toBeLessThanOrEqual(86_400_000);
    }
    // The audit trail holds the call, by Alice.
    const [row] = await ctx.db.query<{ outcome: string; user_id: number; target: unknown }>(
      `SELECT outcome, user_id, target FROM audit_events WHERE action = 'ipSearch.ban' ORDER BY id DESC LIMIT 1`,
    );
    expect(row).toMatchObject({ outcome: 'success' });
    expect(Number(row!.user_id)).toBe(alice.id);
    expect(JSON.stringify(row!.target)).toContain('203.0.113.50');
  });

  it("names the failing account's list and finishes the other accounts' part", async () => {
    // Account two's token is disabled at Cloudflare: every call of that account is refused.
    ctx.sandbox.control.setTokenStatus(two.tokenValue, 'disabled');
    const answer = await call(alice, ipSearchEndpoints.ban, {
      value: '203.0.113.60',
      comment: 'bot',
      list_ids: [ids.two_a, ids.one_a],
    });
    expect([200, 202]).toContain(answer.statusCode);
    const parts = await outcome(alice, answer.json<IpSearchActionAnswer>());
    const byName = Object.fromEntries(parts.map((part) => [part.account_name, part.job]));
    expect(byName['Alice Two']!.state).toBe('failed');
    expect(byName['Alice Two']!.error).toContain('The list "two_a"');
    expect(byName['Alice One']!.state).toBe('succeeded');
    expect(valuesAt(one, 'one_a')).toContain('203.0.113.60');
    expect(valuesAt(two, 'two_a')).not.toContain('203.0.113.60');
    ctx.sandbox.control.setTokenStatus(two.tokenValue, 'active');
  });

  it('leaves a list that already holds the value as it is', async () => {
    const before = writesAt();
    const answer = await call(alice, ipSearchEndpoints.ban, {
      value: '192.0.2.9',
      comment: 'again',
      list_ids: [ids.one_a],
    });
    const [part] = await outcome(alice, answer.json<IpSearchActionAnswer>());
    expect(part!.job.state).toBe('succeeded');
    expect((part!.job.result as IpSearchJobResult).lists).toEqual([
      { list_id: ids.one_a, list_name: 'one_a', outcome: 'already' },
    ]);
    expect(writesAt()).toBe(before);
  });

  it('refuses a value a chosen list cannot take, before anything starts', async () => {
    const answer = await call(alice, ipSearchEndpoints.ban, {
      value: 'not an address',
      comment: 'x',
      list_ids: [ids.one_a],
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json<{ message: string }>().message).toContain('The list "one_a"');
  });

  it('removes the address from the chosen lists only', async () => {
    const found = await search(alice, '203.0.113.50');
    const chosen = found.lists.filter((list) => list.list_name !== 'one_b');
    const answer = await call(alice, ipSearchEndpoints.remove, {
      items: chosen.flatMap((list) =>
        list.matches.map((match) => ({ list_id: list.list_id, item_id: match.item_id })),
      ),
    });
    expect([200, 202]).toContain(answer.statusCode);
    const parts = await outcome(alice, answer.json<IpSearchActionAnswer>());
    expect(parts.map((part) => part.job.state)).toEqual(['succeeded', 'succeeded']);
    expect(parts.map((part) => part.job.kind)).toEqual(['ip-search-remove', 'ip-search-remove']);
    expect(valuesAt(one, 'one_a')).not.toContain('203.0.113.50');
    expect(valuesAt(two, 'two_a')).not.toContain('203.0.113.50');
    expect(valuesAt(one, 'one_b')).toContain('203.0.113.50');
    expect((await search(alice, '203.0.113.50')).lists.map((list) => list.list_name)).toEqual(['one_b']);
    // Each item's history names who added it and who removed it.
    const history = await ctx.db.query<{ event: string; actor: string; added_via: string | null }>(
      `SELECT event, actor, added_via FROM ban_list_item_history WHERE value = '203.0.113.50' ORDER BY id`,
    );
    expect(history.filter((row) => row.event === 'added')).toHaveLength(3);
    expect(history.filter((row) => row.event === 'added').every((row) => row.added_via === 'console')).toBe(
      true,
    );
    expect(history.filter((row) => row.event === 'removed')).toEqual([
      { event: 'removed', actor: alice.email, added_via: null },
      { event: 'removed', actor: alice.email, added_via: null },
    ]);
  });

  it("refuses another person's list ids (404) and sends nothing", async () => {
    const before = writesAt();
    const ban = await call(alice, ipSearchEndpoints.ban, {
      value: '203.0.113.70',
      comment: 'x',
      list_ids: [ids.one_a, ids.bob_a],
    });
    expect(ban.statusCode).toBe(404);
    const bobsList = (await search(bob, '192.0.2.9')).lists[0]!;
    const remove = await call(alice, ipSearchEndpoints.remove, {
      items: [{ list_id: bobsList.list_id, item_id: bobsList.matches[0]!.item_id }],
    });
    expect(remove.statusCode).toBe(404);
    expect(writesAt()).toBe(before);
    expect(valuesAt(bobs, 'bob_a')).toContain('192.0.2.9');
    expect(valuesAt(one, 'one_a')).not.toContain('203.0.113.70');
  });

  it('bounds the bodies (400)', async () => {
    const tooMany = Array.from({ length: 201 }, (_, i) => `list${i}`);
    for (const payload of [
      { value: '203.0.113.1', comment: 'x', list_ids: [] },
      { value: '203.0.113.1', comment: 'x', list_ids: tooMany },
      { value: '203.0.113.1', comment: '', list_ids: [ids.one_a] },
      { value: '203.0.113.1', comment: 'x', list_ids: [ids.one_a], expires: 'soon' },
    ])
      expect((await call(alice, ipSearchEndpoints.ban, payload)).statusCode).toBe(400);
    // Half of a surrogate pair is not text PostgreSQL stores as JSON (a job's data): refused by the
    // request's check, which names the field, before any job.
    const lone = await call(alice, ipSearchEndpoints.ban, {
      value: '203.0.113.1',
      comment: 'x\ud800',
      list_ids: [ids.one_a],
    });
    expect(lone.statusCode).toBe(400);
    expect(lone.body).toContain('Comment holds a character that is not valid text.');
    expect((await call(alice, ipSearchEndpoints.remove, { items: [] })).statusCode).toBe(400);
    expect(
      (await call(alice, ipSearchEndpoints.remove, { items: [{ list_id: ids.one_a, item_id: -1 }] }))
        .statusCode,
    ).toBe(400);
  });

  describe('capacity', () => {
    const capacityOf = async (user: TestUser) =>
      (
        await ctx.app.inject({ ...requestTo(listCapacityEndpoints.list), headers: user.headers })
      ).json<CapacityAnswer>().accounts;

    it("answers each of the person's accounts: lists and items used of the plan's limits", async () => {
      const accounts = await capacityOf(alice);
      expect(accounts.map((account) => account.account_name)).toEqual(['Alice One', 'Alice Two']);
      const [first, second] = accounts;
      const itemsOf = async (user: TestUser, name: string) =>
        (await ctx.app.inject({ method: 'GET', url: '/api/cloudflare/banlists', headers: user.headers }))
          .json<{ list_name: string; items: number }[]>()
          .find((l) => l.list_name === name)!.items;
      expect(first!.lists.used).toBe(2);
      expect(first!.items.used).toBe((await itemsOf(alice, 'one_a')) + (await itemsOf(alice, 'one_b')));
      expect(second!.lists.used).toBe(1);
      // No plan set and nothing only Enterprise allows: Free, assumed.
      expect(first).toMatchObject({
        plan: 'free',
        plan_source: 'assumed',
        lists: { limit: 1 },
        items: { limit: 10_000 },
      });
      expect((await capacityOf(bob)).map((account) => account.account_name)).toEqual(['Bob Co']);
    });

    it('takes the plan the person sets for their account, and only theirs', async () => {
      const set = (user: TestUser, accountId: string, plan: unknown) =>
        ctx.app.inject({
          ...requestTo(listCapacityEndpoints.setPlan, {
            params: { account_id: accountId },
            payload: { plan },
          }),
          headers: user.headers,
        });
      const answer = await set(alice, one.account_id, 'enterprise');
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({
        plan: 'enterprise',
        plan_source: 'setting',
        lists: { used: 2, limit: 1_000 },
        items: { limit: 500_000 },
      });
      expect((await capacityOf(alice))[0]).toMatchObject({ plan: 'enterprise', plan_source: 'setting' });
      expect((await set(alice, bobs.account_id, 'enterprise')).statusCode).toBe(404);
      expect((await capacityOf(bob))[0]).toMatchObject({ plan: 'free', plan_source: 'assumed' });
      expect((await set(alice, one.account_id, 'platinum')).statusCode).toBe(400);
      expect((await set(alice, one.account_id, null)).json()).toMatchObject({
        plan: 'free',
        plan_source: 'assumed',
      });
    });
  });
});
