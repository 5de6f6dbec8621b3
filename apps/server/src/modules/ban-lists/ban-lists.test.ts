import { refusalOf } from '../../test/request';
import type { BanList } from '@guardian/contract';
import { describe, expect, it } from 'vitest';
import type { TestUser } from '../../test/context';
import { twoPeopleSuite, type TwoPeople } from '../../test/two-people';

describe('ban lists', () => {
  let { ctx, alice, bob } = {} as TwoPeople;
  twoPeopleSuite((suite) => ({ ctx, alice, bob } = suite));

  const call = (user: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    ctx.app.inject({ method, url: `/api/cloudflare/banlists${url}`, headers: user.headers, payload });
  /** Asks for a new list, as the Add dialog does. */
  const addList = (user: TestUser, account_name: string, list_name: string, kind = 'ip') =>
    call(user, 'POST', '', { account_name, list_name, kind });
  const listsOf = async (user: TestUser) => (await call(user, 'GET', '')).json<BanList[]>();
  const cloudflareListNames = (accountId: string) =>
    ctx.sandbox.control
      .getLists(accountId)
      .map((list) => list.name)
      .sort();
  /** Deletes a list at Cloudflare behind the console's back. */
  const deleteAtCloudflare = async (accountId: string, listId: string, token: string) => {
    const response = await fetch(`${ctx.sandbox.baseUrl}/accounts/${accountId}/rules/lists/${listId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
  };
  /** Cloudflare answers 503 to these calls (until the suite clears the faults after the test). */
  const cloudflareDown = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string | RegExp) =>
    ctx.sandbox.control.injectFault({ path, method, status: 503 });
  const mirroredItems = async (ref: number) => {
    const [row] = await ctx.db.query<{ count: number; items_count: number }>(
      `SELECT (SELECT count(*) FROM ban_list_items WHERE ban_list_ref = $1)::int AS count, items_count
       FROM ban_lists WHERE id = $1`,
      [ref],
    );
    return row;
  };

  describe('create', () => {
    it('creates the list at Cloudflare, then answers and lists it', async () => {
      const account = await ctx.addAccount(alice, { name: 'Create Co' });
      const response = await addList(alice, 'Create Co', 'blocked_ips');
      expect(response.statusCode).toBe(201);
      const [atCloudflare] = ctx.sandbox.control.getLists(account.account_id);
      expect(response.json()).toEqual({
        id: expect.any(Number),
        account_name: 'Create Co',
        account_id: account.account_id,
        list_name: 'blocked_ips',
        list_id: atCloudflare!.id,
        kind: 'ip',
        items: 0,
        purpose: 'block',
        purpose_source: 'name',
      });
      expect(await listsOf(alice)).toContainEqual(response.json());
      expect(await listsOf(bob)).toEqual([]);
    });

    it('names the account case-insensitively, as accounts are unique per person that way', async () => {
      const account = await ctx.addAccount(alice, { name: 'Case Co' });
      const response = await addList(alice, 'case co', 'x1');
      expect(response.statusCode).toBe(201);
      expect(response.json().account_id).toBe(account.account_id);
    });

    it.each([
      [{}, 'account_name'],
      [{ account_name: ' ', list_name: 'a', kind: 'ip' }, 'Account is required.'],
      [{ account_name: 'A', list_name: '', kind: 'ip' }, 'List name is required.'],
      [
        { account_name: 'A', list_name: 'Bad-Name', kind: 'ip' },
        'lowercase letters, numbers and underscores',
      ],
      [{ account_name: 'A', list_name: 'a'.repeat(51), kind: 'ip' }, 'at most 50 characters'],
      [
        { account_name: 'A', list_name: 'ok', kind: 'domain' },
        'Kind must be one of ip, redirect, hostname, asn.',
      ],
    ])('answers 400 for %j', async (payload, message) => {
      const response = await call(alice, 'POST', '', payload);
      expect(response.statusCode).toBe(400);
      expect(refusalOf(response.json())).toContain(message);
    });

    it("answers 404 for an account the person does not have, another person's included", async () => {
      await ctx.addAccount(bob, { name: 'Bob Only' });
      const response = await addList(alice, 'Bob Only', 'x');
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Account "Bob Only" not found.');
    });

    it("passes on Cloudflare's reasons (plan quota, kind, duplicate) and stores nothing", async () => {
      const free = await ctx.addAccount(alice, { name: 'Free Co', plan: 'free' });
      expect((await addList(alice, 'Free Co', 'one')).statusCode).toBe(201);
      const before = await listsOf(alice);

      const quota = await addList(alice, 'Free Co', 'two');
      expect(quota.statusCode).toBe(400);
      expect(quota.json().message).toBe('You have reached the maximum number of lists (1) for your plan');

      const pro = await ctx.addAccount(alice, { name: 'Pro Co', plan: 'pro' });
      const kind = await addList(alice, 'Pro Co', 'hosts', 'hostname');
      expect(kind.statusCode).toBe(400);
      expect(kind.json().message).toBe('Lists of kind hostname are only available on Enterprise plans');

      expect((await addList(alice, 'Pro Co', 'dup')).statusCode).toBe(201);
      const duplicate = await addList(alice, 'Pro Co', 'dup');
      expect(duplicate.statusCode).toBe(400);
      expect(duplicate.json().message).toBe('A list named dup already exists');

      expect(cloudflareListNames(free.account_id)).toEqual(['one']);
      expect(cloudflareListNames(pro.account_id)).toEqual(['dup']);
      expect((await listsOf(alice)).length).toBe(before.length + 1);
    });

    it('answers 502 when Cloudflare is down and stores nothing', async () => {
      const account = await ctx.addAccount(alice, { name: 'Down Co' });
      const before = await listsOf(alice);
      cloudflareDown('POST', /\/rules\/lists$/);
      const response = await addList(alice, 'Down Co', 'down');
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toBe('Cloudflare is unavailable right now. Please try again.');
      expect(await listsOf(alice)).toEqual(before);
      expect(cloudflareListNames(account.account_id)).toEqual([]);
    });

    it('answers 429 with a clear message when Cloudflare rate limits', async () => {
      await ctx.addAccount(alice, { name: 'Busy Co' });
      ctx.sandbox.control.injectFault({
        path: /\/rules\/lists$/,
        method: 'POST',
        status: 429,
        retryAfterSeconds: 60,
      });
      const response = await addList(alice, 'Busy Co', 'busy');
      expect(response.statusCode).toBe(429);
      expect(response.json().message).toBe(
        'Cloudflare is rate limiting this account. Please try again in 1 minute.',
      );
    });
  });

  describe('delete', () => {
    it('deletes the list at Cloudflare, then its mirror', async () => {
      const account = await ctx.addAccount(alice, { name: 'Delete Co' });
      const list = (await addList(alice, 'Delete Co', 'gone')).json<BanList>();
      ctx.sandbox.control.seedListItems(account.account_id, list.list_id, [
        { ip: '192.0.2.1', comment: 'x' },
      ]);
      expect((await call(alice, 'POST', `/${list.list_id}/sync`)).statusCode).toBe(200);
      expect(await mirroredItems(list.id)).toEqual({ count: 1, items_count: 1 });

      const response = await call(alice, 'DELETE', `/${list.id}`);
      expect(response.statusCode).toBe(204);
      expect(cloudflareListNames(account.account_id)).toEqual([]);
      expect(await listsOf(alice)).not.toContainEqual(expect.objectContaining({ id: list.id }));
      expect(await ctx.db.query('SELECT 1 FROM ban_list_items WHERE ban_list_ref = $1', [list.id])).toEqual(
        [],
      );
      expect((await call(alice, 'GET', `/${list.list_id}/items`)).statusCode).toBe(404);
    });

    it('removes a list that Cloudflare no longer has', async () => {
      const account = await ctx.addAccount(alice, { name: 'Vanished Co' });
      const list = (await addList(alice, 'Vanished Co', 'v')).json<BanList>();
      await deleteAtCloudflare(account.account_id, list.list_id, account.tokenValue);
      expect((await call(alice, 'DELETE', `/${list.id}`)).statusCode).toBe(204);
      expect(await listsOf(alice)).not.toContainEqual(expect.objectContaining({ id: list.id }));
    });

    it("answers 404 for another person's list and unknown ids, 400 for a malformed id; nothing changes", async () => {
      await ctx.addAccount(bob, { name: 'Bob Delete' });
      const list = (await addList(bob, 'Bob Delete', 'mine')).json<BanList>();
      expect((await call(alice, 'DELETE', `/${list.id}`)).statusCode).toBe(404);
      expect((await call(alice, 'DELETE', '/999999')).statusCode).toBe(404);
      const malformed = await call(alice, 'DELETE', '/abc');
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().message).toContain('id');
      expect(await listsOf(bob)).toContainEqual(list);
    });

    it('keeps everything when Cloudflare refuses or fails', async () => {
      const account = await ctx.addAccount(alice, { name: 'Keep Co' });
      const list = (await addList(alice, 'Keep Co', 'kept')).json<BanList>();
      cloudflareDown('DELETE', /\/rules\/lists\/[^/]+$/);
      const response = await call(alice, 'DELETE', `/${list.id}`);
      expect(response.statusCode).toBe(502);
      expect(await listsOf(alice)).toContainEqual(list);
      expect(cloudflareListNames(account.account_id)).toEqual(['kept']);
    });
  });

  describe('purpose (issue 35 item 9)', () => {
    const purposes = async (user: TestUser) =>
      Object.fromEntries(
        (await listsOf(user)).map((list) => [list.list_name, [list.purpose, list.purpose_source]]),
      );

    it("is inferred from the list's name until its person sets it, then kept through Update", async () => {
      const erin = await ctx.createUser();
      await ctx.addAccount(erin, { name: 'Purpose Co' });
      const made: Record<string, BanList> = {};
      for (const name of [
        'office_allowlist',
        'trusted_partners',
        'bad_actors',
        'threat_feed',
        'misc',
        'pass_or_deny',
      ]) {
        made[name] = (await addList(erin, 'Purpose Co', name)).json<BanList>();
      }
      expect(await purposes(erin)).toEqual({
        office_allowlist: ['allow', 'name'],
        trusted_partners: ['allow', 'name'],
        bad_actors: ['block', 'name'],
        threat_feed: ['block', 'name'],
        // No word, or words both ways: not said.
        misc: [null, null],
        pass_or_deny: [null, null],
      });

      const set = await call(erin, 'PUT', `/${made.misc!.id}/purpose`, { purpose: 'allow' });
      expect(set.statusCode).toBe(200);
      expect(set.json()).toMatchObject({ list_name: 'misc', purpose: 'allow', purpose_source: 'person' });
      // The person's choice outweighs the name.
      await call(erin, 'PUT', `/${made.bad_actors!.id}/purpose`, { purpose: 'allow' });
      await call(erin, 'POST', '/update');
      expect(await purposes(erin)).toMatchObject({
        misc: ['allow', 'person'],
        bad_actors: ['allow', 'person'],
      });

      // null takes the choice back: the name speaks again.
      const back = await call(erin, 'PUT', `/${made.bad_actors!.id}/purpose`, { purpose: null });
      expect(back.json()).toMatchObject({ purpose: 'block', purpose_source: 'name' });

      const [event] = await ctx.db.query<{ summary: string; outcome: string }>(
        "SELECT summary, outcome FROM audit_events WHERE action = 'banLists.setPurpose' ORDER BY id LIMIT 1",
      );
      expect(event).toEqual({
        summary: `${erin.email} marked ban list misc (account Purpose Co) as an allowlist`,
        outcome: 'success',
      });
    });

    it("is set only on the person's own lists, and only to block, allow or null", async () => {
      const frank = await ctx.createUser();
      await ctx.addAccount(frank, { name: 'Frank Co' });
      const list = (await addList(frank, 'Frank Co', 'frank_list')).json<BanList>();

      const other = await call(bob, 'PUT', `/${list.id}/purpose`, { purpose: 'allow' });
      expect(other.statusCode).toBe(404);
      for (const body of [{ purpose: 'maybe' }, {}, { purpose: 'x'.repeat(10_000) }]) {
        const refused = await call(frank, 'PUT', `/${list.id}/purpose`, body);
        expect(refused.statusCode).toBe(400);
      }
      expect((await call(frank, 'PUT', '/999999999/purpose', { purpose: 'block' })).statusCode).toBe(404);
      expect(await purposes(frank)).toEqual({ frank_list: [null, null] });
    });
  });

  describe('update', () => {
    it("makes the person's lists equal to Cloudflare's: adds, renames, removes (with their items)", async () => {
      const carol = await ctx.createUser();
      const account = await ctx.addAccount(carol, { name: 'Update Co' });
      const kept = (await addList(carol, 'Update Co', 'kept')).json<BanList>();
      const removed = (await addList(carol, 'Update Co', 'removed')).json<BanList>();
      ctx.sandbox.control.seedListItems(account.account_id, removed.list_id, [
        { ip: '192.0.2.9', comment: 'x' },
      ]);
      await call(carol, 'POST', `/${removed.list_id}/sync`);
      await deleteAtCloudflare(account.account_id, removed.list_id, account.tokenValue);
      const added = ctx.sandbox.control.addList(account.account_id, { name: 'added', kind: 'asn' });
      // A name that drifted locally is put right.
      await ctx.db.query("UPDATE ban_lists SET list_name = 'stale' WHERE id = $1", [kept.id]);
      const bobBefore = await listsOf(bob);

      const response = await call(carol, 'POST', '/update');
      expect(response.statusCode).toBe(200);
      const lists = response.json<BanList[]>();
      expect(lists).toEqual(await listsOf(carol));
      expect(lists.map((list) => [list.list_name, list.list_id, list.kind]).sort()).toEqual(
        [
          ['added', added.id, 'asn'],
          ['kept', kept.list_id, 'ip'],
        ].sort(),
      );
      expect(
        await ctx.db.query('SELECT 1 FROM ban_list_items WHERE ban_list_ref = $1', [removed.id]),
      ).toEqual([]);
      expect(await listsOf(bob)).toEqual(bobBefore);
    });

    it('changes nothing when one account cannot be read, and says which', async () => {
      const dave = await ctx.createUser();
      const good = await ctx.addAccount(dave, { name: 'Good Co' });
      const bad = await ctx.addAccount(dave, { name: 'Bad Co' });
      ctx.sandbox.control.addList(good.account_id, { name: 'new_good', kind: 'ip' });
      cloudflareDown('GET', `/accounts/${bad.account_id}/rules/lists`);
      const response = await call(dave, 'POST', '/update');
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toBe(
        'Could not read the lists of "Bad Co": Cloudflare is unavailable right now. Please try again.',
      );
      expect(await listsOf(dave)).toEqual([]);
    });
  });

  describe('clean', () => {
    it("empties every list of the person at Cloudflare and locally, and no one else's", async () => {
      const erin = await ctx.createUser();
      const account = await ctx.addAccount(erin, { name: 'Clean Co' });
      const bobAccount = await ctx.addAccount(bob, { name: 'Bob Clean' });
      const first = ctx.sandbox.control.addList(account.account_id, { name: 'first', kind: 'ip' });
      const second = ctx.sandbox.control.addList(account.account_id, { name: 'second', kind: 'ip' });
      const bobs = ctx.sandbox.control.addList(bobAccount.account_id, { name: 'bobs', kind: 'ip' });
      ctx.sandbox.control.seedListItems(account.account_id, first.id, [
        { ip: '192.0.2.1' },
        { ip: '192.0.2.2' },
      ]);
      ctx.sandbox.control.seedListItems(account.account_id, second.id, [{ ip: '192.0.2.3' }]);
      ctx.sandbox.control.seedListItems(bobAccount.account_id, bobs.id, [{ ip: '192.0.2.4' }]);
      await call(erin, 'POST', '/update');
      await call(bob, 'POST', '/update');
      for (const list of [first, second]) await call(erin, 'POST', `/${list.id}/sync`);
      await call(bob, 'POST', `/${bobs.id}/sync`);

      const response = await call(erin, 'POST', '/clean');
      expect(response.statusCode).toBe(200);
      expect(response.json<BanList[]>().map((list) => list.items)).toEqual([0, 0]);
      expect(ctx.sandbox.control.getListItems(account.account_id, first.id)).toEqual([]);
      expect(ctx.sandbox.control.getListItems(account.account_id, second.id)).toEqual([]);
      for (const list of response.json<BanList[]>())
        expect(await mirroredItems(list.id)).toEqual({ count: 0, items_count: 0 });
      expect(ctx.sandbox.control.getListItems(bobAccount.account_id, bobs.id)).toHaveLength(1);
      expect((await listsOf(bob)).find((list) => list.list_id === bobs.id)?.items).toBe(1);
    });

    it('stops at a list Cloudflare fails on: lists before it are empty on both sides, the rest untouched', async () => {
      const frank = await ctx.createUser();
      const account = await ctx.addAccount(frank, { name: 'Half Co' });
      const first = ctx.sandbox.control.addList(account.account_id, { name: 'first', kind: 'ip' });
      const second = ctx.sandbox.control.addList(account.account_id, { name: 'second', kind: 'ip' });
      ctx.sandbox.control.seedListItems(account.account_id, first.id, [{ ip: '192.0.2.1' }]);
      ctx.sandbox.control.seedListItems(account.account_id, second.id, [{ ip: '192.0.2.2' }]);
      await call(frank, 'POST', '/update');
      for (const list of [first, second]) await call(frank, 'POST', `/${list.id}/sync`);
      cloudflareDown('PUT', `/accounts/${account.account_id}/rules/lists/${second.id}/items`);

      const response = await call(frank, 'POST', '/clean');
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toBe(
        'Could not empty "second": Cloudflare is unavailable right now. Please try again.',
      );
      const lists = await listsOf(frank);
      expect(lists.map((list) => [list.list_name, list.items])).toEqual([
        ['first', 0],
        ['second', 1],
      ]);
      expect(ctx.sandbox.control.getListItems(account.account_id, first.id)).toEqual([]);
      expect(ctx.sandbox.control.getListItems(account.account_id, second.id)).toHaveLength(1);
    });
  });
});
