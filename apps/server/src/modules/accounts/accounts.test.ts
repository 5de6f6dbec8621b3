import { refusalOf } from '../../test/request';
import { describe, expect, it, vi } from 'vitest';
import { createAppDeps } from '../../app';
import type { TestUser } from '../../test/context';
import { twoPeopleSuite, type TwoPeople } from '../../test/two-people';
import { AccountsRepository, TOKEN_CHECK_EVERY_MS } from './accounts.repository';
import { TokenChecks, TOKENS_PER_SWEEP } from './token-checks';

/** Long enough for a few sync jobs on a loaded machine; each wait ends as soon as its condition holds. */
const JOB_WAIT = { timeout: 30_000, interval: 100 };

describe('Cloudflare accounts', () => {
  let { ctx, alice, bob } = {} as TwoPeople;
  twoPeopleSuite((suite) => ({ ctx, alice, bob } = suite));

  const add = (user: TestUser, payload: unknown) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/cloudflare/accounts',
      headers: user.headers,
      payload: payload as object,
    });

  it('verifies the token at Cloudflare, stores it encrypted and answers only the masked form', async () => {
    const cfAccount = ctx.sandbox.control.addAccount({ name: 'Acme', plan: 'pro' });
    ctx.sandbox.control.addToken({ value: 'acme-token-abcd1234', accountIds: [cfAccount.id] });

    const response = await add(alice, { account_name: 'Acme', token: 'acme-token-abcd1234' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      id: expect.any(Number),
      account_name: 'Acme',
      account_id: cfAccount.id,
      token: '****1234',
      token_status: 'active',
      token_expires_on: null,
      token_checked_at: expect.any(String),
    });
    expect(response.body).not.toContain('acme-token');

    const [stored] = await ctx.db.query<{ token_encrypted: string }>(
      'SELECT token_encrypted FROM cloudflare_accounts WHERE account_id = $1',
      [cfAccount.id],
    );
    expect(stored!.token_encrypted).not.toContain('acme-token');

    const list = await ctx.app.inject({
      method: 'GET',
      url: '/api/cloudflare/accounts',
      headers: alice.headers,
    });
    expect(list.json()).toEqual([response.json()]);
    expect(ctx.sandbox.control.callCount({ path: /\/user\/tokens\/verify$/ })).toBeGreaterThan(0);
  });

  it('verifies an account-owned token at the account endpoint', async () => {
    const cfAccount = ctx.sandbox.control.addAccount({ name: 'Owned', plan: 'free' });
    ctx.sandbox.control.addToken({
      value: 'account-owned-token-9999',
      accountIds: [cfAccount.id],
      kind: 'account',
    });
    const response = await add(alice, { account_name: 'Owned', token: 'account-owned-token-9999' });
    expect(response.statusCode).toBe(201);
    expect(response.json().account_id).toBe(cfAccount.id);
  });

  it.each(['disabled', 'expired'] as const)(
    'refuses a %s token with a reason and stores nothing',
    async (status) => {
      const cfAccount = ctx.sandbox.control.addAccount({ name: `Bad ${status}`, plan: 'free' });
      ctx.sandbox.control.addToken({ value: `bad-${status}-token`, accountIds: [cfAccount.id], status });
      const response = await add(alice, { account_name: `Bad ${status}`, token: `bad-${status}-token` });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/token/i);
      const rows = await ctx.db.query('SELECT 1 FROM cloudflare_accounts WHERE account_id = $1', [
        cfAccount.id,
      ]);
      expect(rows).toHaveLength(0);
    },
  );

  it('refuses an unknown token with Cloudflare’s reason', async () => {
    const response = await add(alice, { account_name: 'Nobody', token: 'no-such-token' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^Cloudflare refused this API token/);
  });

  it('refuses a duplicate account name for the same user, but not for another user', async () => {
    const cfAccount = ctx.sandbox.control.addAccount({ name: 'Dup', plan: 'free' });
    ctx.sandbox.control.addToken({ value: 'dup-token-1', accountIds: [cfAccount.id] });
    const second = ctx.sandbox.control.addAccount({ name: 'Dup2', plan: 'free' });
    ctx.sandbox.control.addToken({ value: 'dup-token-2', accountIds: [second.id] });

    expect((await add(alice, { account_name: 'Shared label', token: 'dup-token-1' })).statusCode).toBe(201);
    const duplicate = await add(alice, { account_name: 'shared LABEL', token: 'dup-token-2' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().message).toBe('You already have an account named "shared LABEL".');
    expect((await add(bob, { account_name: 'Shared label', token: 'dup-token-2' })).statusCode).toBe(201);
  });

  it('refuses the same Cloudflare account twice for one user', async () => {
    const cfAccount = ctx.sandbox.control.addAccount({ name: 'Twice', plan: 'free' });
    ctx.sandbox.control.addToken({ value: 'twice-token-1', accountIds: [cfAccount.id] });
    ctx.sandbox.control.addToken({ value: 'twice-token-2', accountIds: [cfAccount.id] });
    expect((await add(bob, { account_name: 'Twice A', token: 'twice-token-1' })).statusCode).toBe(201);
    expect((await add(bob, { account_name: 'Twice B', token: 'twice-token-2' })).statusCode).toBe(409);
  });

  it.each([
    [{}, 'account_name'],
    [{ account_name: '', token: 'x' }, 'Account name is required.'],
    [{ account_name: 'A', token: '   ' }, 'API token is required.'],
    [{ account_name: 'A', token: 'has space inside' }, 'API token must not contain'],
    [{ account_name: 42, token: 'x' }, 'account_name'],
  ])('answers 400 with a message for %j', async (payload, message) => {
    const response = await add(alice, payload);
    expect(response.statusCode).toBe(400);
    expect(refusalOf(response.json())).toContain(message);
  });

  it('shows each user only their own accounts', async () => {
    const aliceList = (
      await ctx.app.inject({ method: 'GET', url: '/api/cloudflare/accounts', headers: alice.headers })
    ).json();
    const bobList = (
      await ctx.app.inject({ method: 'GET', url: '/api/cloudflare/accounts', headers: bob.headers })
    ).json();
    const aliceIds = new Set(aliceList.map((a: { id: number }) => a.id));
    expect(bobList.some((a: { id: number }) => aliceIds.has(a.id))).toBe(false);
    expect(bobList.map((a: { account_name: string }) => a.account_name)).toEqual(['Shared label', 'Twice A']);
  });

  it('maps a Cloudflare outage to 502 and stores nothing', async () => {
    const cfAccount = ctx.sandbox.control.addAccount({ name: 'Down', plan: 'free' });
    ctx.sandbox.control.addToken({ value: 'down-token', accountIds: [cfAccount.id] });
    ctx.sandbox.control.injectFault({ status: 503, times: 10 });
    const response = await add(alice, { account_name: 'Down', token: 'down-token' });
    ctx.sandbox.control.clearFaults();
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toBe('Cloudflare is unavailable right now. Please try again.');
    expect(
      await ctx.db.query('SELECT 1 FROM cloudflare_accounts WHERE account_id = $1', [cfAccount.id]),
    ).toHaveLength(0);
  });

  const get = (user: TestUser, url: string) => ctx.app.inject({ method: 'GET', url, headers: user.headers });
  const edit = (user: TestUser, id: number, payload: object) =>
    ctx.app.inject({ method: 'PUT', url: `/api/cloudflare/accounts/${id}`, headers: user.headers, payload });
  const remove = (user: TestUser, id: number) =>
    ctx.app.inject({ method: 'DELETE', url: `/api/cloudflare/accounts/${id}`, headers: user.headers });

  interface ListRow {
    account_name: string;
    list_name: string;
    list_id: string;
    items: number;
  }
  interface JobRow {
    kind: string;
    account_name: string | null;
    target: string;
    state: string;
  }
  const listsOf = async (user: TestUser, accountName: string) =>
    (await get(user, '/api/cloudflare/banlists'))
      .json<ListRow[]>()
      .filter((list) => list.account_name === accountName);
  const jobsOf = async (user: TestUser, accountName: string) =>
    (await get(user, '/api/jobs'))
      .json<{ jobs: JobRow[] }>()
      .jobs.filter((job) => job.account_name === accountName);
  const untilJobsEnd = (user: TestUser, accountName: string) =>
    vi.waitFor(async () => {
      const jobs = await jobsOf(user, accountName);
      expect(jobs.filter((job) => ['queued', 'running'].includes(job.state))).toEqual([]);
      return jobs;
    }, JOB_WAIT);

  /** A Cloudflare account holding a list of `items` addresses and an empty hostname list, with a token. */
  function seededAccount(name: string, items: number, token: string, options: { expiresOn?: string } = {}) {
    const cfAccount = ctx.sandbox.control.addAccount({ name, plan: 'enterprise' });
    ctx.sandbox.control.addToken({ value: token, accountIds: [cfAccount.id], ...options });
    const ips = ctx.sandbox.control.addList(cfAccount.id, { name: 'seeded_ips', kind: 'ip' });
    ctx.sandbox.control.seedListItems(
      cfAccount.id,
      ips.id,
      Array.from({ length: items }, (_, index) => ({
        ip: index < 254 ? `192.0.2.${index + 1}` : `10.0.${index >> 8}.${index & 255}`,
        comment: `seed ${index}`,
      })),
    );
    ctx.sandbox.control.addList(cfAccount.id, { name: 'partner_hosts', kind: 'hostname' });
    return cfAccount;
  }

  it("brings a new account's lists in at once and their items by a sync job per list (issue 35 item 5)", async () => {
    const carol = await ctx.createUser();
    seededAccount('Bring In', 7, 'bring-in-token-0001');
    const response = await add(carol, { account_name: 'Bring In', token: 'bring-in-token-0001' });
    expect(response.statusCode).toBe(201);

    // The lists are there with the answer; their syncs are jobs the person sees.
    expect((await listsOf(carol, 'Bring In')).map((list) => list.list_name).sort()).toEqual([
      'partner_hosts',
      'seeded_ips',
    ]);
    const jobs = await untilJobsEnd(carol, 'Bring In');
    expect(jobs.map((job) => [job.kind, job.target, job.state]).sort()).toEqual([
      ['ban-list-sync', 'partner_hosts', 'succeeded'],
      ['ban-list-sync', 'seeded_ips', 'succeeded'],
    ]);
    const counts = Object.fromEntries(
      (await listsOf(carol, 'Bring In')).map((list) => [list.list_name, list.items]),
    );
    expect(counts).toEqual({ seeded_ips: 7, partner_hosts: 0 });
    const seeded = (await listsOf(carol, 'Bring In')).find((list) => list.list_name === 'seeded_ips')!;
    const items = await get(carol, `/api/cloudflare/banlists/${seeded.list_id}/items`);
    expect(items.body).toContain('192.0.2.7');
  });

  it("reads a new account's list once when the person asks to update it while its sync is under way", async () => {
    const frank = await ctx.createUser();
    // 1,200 items: three pages, each answered after 300 ms, so the list's first sync still runs when
    // the person presses "Update from Cloudflare" right after adding the account.
    const cfAccount = seededAccount('Joined Sync', 1_200, 'joined-sync-token-01');
    const itemsPath = new RegExp(`/accounts/${cfAccount.id}/rules/lists/[^/]+/items$`);
    ctx.sandbox.control.injectFault({ latencyMs: 300, path: itemsPath });
    try {
      expect(
        (await add(frank, { account_name: 'Joined Sync', token: 'joined-sync-token-01' })).statusCode,
      ).toBe(201);
      const seeded = (await listsOf(frank, 'Joined Sync')).find((list) => list.list_name === 'seeded_ips')!;
      const update = await ctx.app.inject({
        method: 'POST',
        url: `/api/cloudflare/banlists/${seeded.list_id}/sync`,
        headers: frank.headers,
      });
      expect([200, 202]).toContain(update.statusCode);
      const jobs = await untilJobsEnd(frank, 'Joined Sync');
      expect(jobs.filter((job) => job.target === 'seeded_ips').map((job) => job.state)).toEqual([
        'succeeded',
      ]);
    } finally {
      ctx.sandbox.control.clearFaults();
    }
    // Each list read once: seeded_ips's 1,200 items in 3 pages (not 6) and the empty partner_hosts in 1.
    expect(ctx.sandbox.control.callCount({ path: itemsPath })).toBe(3 + 1);
    expect((await listsOf(frank, 'Joined Sync')).find((list) => list.list_name === 'seeded_ips')!.items).toBe(
      1_200,
    );
  });

  it('keeps no account when Cloudflare does not answer for its lists, so adding again starts clean', async () => {
    const dave = await ctx.createUser();
    const cfAccount = seededAccount('Lists Down', 1, 'lists-down-token-01');
    ctx.sandbox.control.injectFault({ status: 503, times: 10, path: /\/rules\/lists$/ });
    const response = await add(dave, { account_name: 'Lists Down', token: 'lists-down-token-01' });
    ctx.sandbox.control.clearFaults();
    expect(response.statusCode).toBe(502);
    expect(
      await ctx.db.query('SELECT 1 FROM cloudflare_accounts WHERE account_id = $1', [cfAccount.id]),
    ).toHaveLength(0);
    expect((await add(dave, { account_name: 'Lists Down', token: 'lists-down-token-01' })).statusCode).toBe(
      201,
    );
    await untilJobsEnd(dave, 'Lists Down');
  });

  it("shows the token's state: active, when it expires and when it was checked", async () => {
    const erin = await ctx.createUser();
    const expiresOn = '2031-05-01T12:00:00.000Z';
    const cfAccount = ctx.sandbox.control.addAccount({ name: 'Expiring', plan: 'free' });
    ctx.sandbox.control.addToken({ value: 'expiring-token-0001', accountIds: [cfAccount.id], expiresOn });
    const before = Date.now();
    const response = await add(erin, { account_name: 'Expiring', token: 'expiring-token-0001' });
    expect(response.statusCode).toBe(201);
    const [listed] = (await get(erin, '/api/cloudflare/accounts')).json();
    expect(listed).toMatchObject({ token_status: 'active', token_expires_on: expiresOn });
    expect(Date.parse(listed.token_checked_at)).toBeGreaterThanOrEqual(before - 1000);
  });

  it("renames an account; refuses a name the person already uses; another person's account is not found", async () => {
    const frank = await ctx.createUser();
    const first = ctx.sandbox.control.addAccount({ name: 'Rename 1', plan: 'free' });
    ctx.sandbox.control.addToken({ value: 'rename-token-0001', accountIds: [first.id] });
    const second = ctx.sandbox.control.addAccount({ name: 'Rename 2', plan: 'free' });
    ctx.sandbox.control.addToken({ value: 'rename-token-0002', accountIds: [second.id] });
    const one = (await add(frank, { account_name: 'Old name', token: 'rename-token-0001' })).json();
    await add(frank, { account_name: 'Taken', token: 'rename-token-0002' });

    const renamed = await edit(frank, one.id, { account_name: 'New name', token: '' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ id: one.id, account_name: 'New name', token: '****0001' });
    expect(
      (await get(frank, '/api/cloudflare/accounts'))
        .json()
        .map((a: { account_name: string }) => a.account_name),
    ).toEqual(['New name', 'Taken']);

    const taken = await edit(frank, one.id, { account_name: 'taken' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('You already have an account named "taken".');
    // Its own name in another case is no conflict.
    expect((await edit(frank, one.id, { account_name: 'NEW NAME' })).statusCode).toBe(200);

    expect((await edit(alice, one.id, { account_name: 'Stolen' })).statusCode).toBe(404);
    expect((await remove(alice, one.id)).statusCode).toBe(404);
    expect(refusalOf((await edit(frank, one.id, {})).json())).toContain(
      'Give a new account name or a new API token.',
    );
    expect((await edit(frank, one.id, { account_name: 'x'.repeat(101) })).statusCode).toBe(400);
  });

  it('replaces the token only with one Cloudflare accepts for the same account, stored encrypted and never answered', async () => {
    const grace = await ctx.createUser();
    const cfAccount = ctx.sandbox.control.addAccount({ name: 'Rotate', plan: 'free' });
    ctx.sandbox.control.addToken({ value: 'rotate-old-token-aaaa', accountIds: [cfAccount.id] });
    const other = ctx.sandbox.control.addAccount({ name: 'Rotate other', plan: 'free' });
    ctx.sandbox.control.addToken({ value: 'rotate-other-token-bbbb', accountIds: [other.id] });
    ctx.sandbox.control.addToken({
      value: 'rotate-disabled-token-c',
      accountIds: [cfAccount.id],
      status: 'disabled',
    });
    ctx.sandbox.control.addToken({ value: 'rotate-new-token-dddd', accountIds: [cfAccount.id] });
    ctx.sandbox.control.addToken({
      value: 'rotate-owned-token-eeee',
      accountIds: [cfAccount.id],
      kind: 'account',
    });
    const account = (await add(grace, { account_name: 'Rotate', token: 'rotate-old-token-aaaa' })).json();
    const stored = async () =>
      (
        await ctx.db.query<{ token_encrypted: string; token_last4: string }>(
          'SELECT token_encrypted, token_last4 FROM cloudflare_accounts WHERE id = $1',
          [account.id],
        )
      )[0]!;
    const old = await stored();

    const otherAccount = await edit(grace, account.id, { token: 'rotate-other-token-bbbb' });
    expect(otherAccount.statusCode).toBe(400);
    expect(otherAccount.json().message).toBe(
      `This API token cannot see the Cloudflare account ${cfAccount.id}: give a token of the same account.`,
    );
    const disabled = await edit(grace, account.id, { token: 'rotate-disabled-token-c' });
    expect(disabled.statusCode).toBe(400);
    expect(disabled.json().message).toBe('Cloudflare reports this API token as disabled.');
    const unknown = await edit(grace, account.id, { token: 'rotate-unknown-token' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/^Cloudflare refused this API token/);
    expect(await stored()).toEqual(old);

    const replaced = await edit(grace, account.id, { token: 'rotate-new-token-dddd' });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toMatchObject({ token: '****dddd', token_status: 'active' });
    expect(replaced.body).not.toContain('rotate-new-token');
    const now = await stored();
    expect(now.token_last4).toBe('dddd');
    expect(now.token_encrypted).not.toBe(old.token_encrypted);
    expect(now.token_encrypted).not.toContain('rotate-new-token');

    // The old token revoked at Cloudflare: the account works on with the new one.
    ctx.sandbox.control.removeToken('rotate-old-token-aaaa');
    const update = await ctx.app.inject({
      method: 'POST',
      url: '/api/cloudflare/banlists/update',
      headers: grace.headers,
    });
    expect(update.statusCode).toBe(200);

    // An account-owned token of the same account verifies at the account's endpoint.
    const owned = await edit(grace, account.id, { token: 'rotate-owned-token-eeee' });
    expect(owned.statusCode).toBe(200);
    expect(owned.json().token).toBe('****eeee');

    const trail = await ctx.db.query<{ action: string; target: unknown }>(
      "SELECT action, target FROM audit_events WHERE user_id = $1 AND action = 'accounts.update' ORDER BY id",
      [grace.id],
    );
    expect(trail.length).toBeGreaterThanOrEqual(4);
    expect(JSON.stringify(trail)).not.toContain('rotate-new-token');
  });

  it('deletes the account with its lists, items mirror, zones and snapshots in Guardian, nothing at Cloudflare; refused while a job works on it', async () => {
    const heidi = await ctx.createUser();
    const cfAccount = seededAccount('Goodbye', 5, 'goodbye-token-00001');
    ctx.sandbox.control.addList(cfAccount.id, { name: 'to_delete', kind: 'ip' });
    ctx.sandbox.control.addZone(cfAccount.id, 'goodbye-example.com', { status: 'active' });
    const keep = seededAccount('Kept', 2, 'kept-token-0000001');
    const account = (await add(heidi, { account_name: 'Goodbye', token: 'goodbye-token-00001' })).json();
    await add(heidi, { account_name: 'Kept', token: 'kept-token-0000001' });
    await untilJobsEnd(heidi, 'Goodbye');
    await untilJobsEnd(heidi, 'Kept');
    expect(
      (await ctx.app.inject({ method: 'POST', url: '/api/cloudflare/zones/sync', headers: heidi.headers }))
        .statusCode,
    ).toBe(200);
    const toDelete = (await listsOf(heidi, 'Goodbye')).find((list) => list.list_name === 'to_delete')!;
    const listRefs = await ctx.db.query<{ id: number }>('SELECT id FROM ban_lists WHERE account_ref = $1', [
      account.id,
    ]);
    // A snapshot of the account: deleting one of its lists keeps one.
    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/cloudflare/banlists/${(await ctx.db.query<{ id: number }>('SELECT id FROM ban_lists WHERE list_id = $1', [toDelete.list_id]))[0]!.id}`,
      headers: heidi.headers,
    });
    expect(deleted.statusCode).toBe(204);
    expect((await get(heidi, '/api/snapshots')).body).toContain('to_delete');

    const [job] = await ctx.db.query<{ id: string }>(
      `INSERT INTO jobs (id, kind, user_id, account_id, target, state) VALUES (gen_random_uuid(), 'ban-list-sync', $1, $2, 'seeded_ips', 'running') RETURNING id`,
      [heidi.id, account.id],
    );
    const busy = await remove(heidi, account.id);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toBe(
      'Guardian is still working on "Goodbye" (1 job). Wait for it to end, or cancel it under Jobs, then delete the account.',
    );
    await ctx.db.query("UPDATE jobs SET state = 'cancelled' WHERE id = $1", [job!.id]);

    const gone = await remove(heidi, account.id);
    expect(gone.statusCode).toBe(204);
    expect(
      (await get(heidi, '/api/cloudflare/accounts'))
        .json()
        .map((a: { account_name: string }) => a.account_name),
    ).toEqual(['Kept']);
    expect(await listsOf(heidi, 'Goodbye')).toEqual([]);
    expect((await listsOf(heidi, 'Kept')).map((list) => list.items).sort()).toEqual([0, 2]);
    expect((await get(heidi, '/api/cloudflare/zones')).body).not.toContain('goodbye-example.com');
    expect((await get(heidi, '/api/snapshots')).body).not.toContain('to_delete');
    for (const { id } of listRefs) {
      const tables = await ctx.db.query(
        `SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1`,
        [`ban_list_items_${id}`],
      );
      expect(tables, `the items of list ${id}`).toHaveLength(0);
    }
    // Nothing at Cloudflare: its lists and items are still there.
    expect(
      ctx.sandbox.control
        .getLists(cfAccount.id)
        .map((list) => list.name)
        .sort(),
    ).toEqual(['partner_hosts', 'seeded_ips']);
    expect(ctx.sandbox.control.getLists(keep.id)).toHaveLength(2);

    const [audited] = await ctx.db.query<{ target: { removed?: unknown } }>(
      "SELECT target FROM audit_events WHERE user_id = $1 AND action = 'accounts.remove' AND status = 204",
      [heidi.id],
    );
    expect(audited?.target.removed).toMatchObject({
      account_id: cfAccount.id,
      account_name: 'Goodbye',
      lists: 2,
      zones: 1,
      snapshots: 1,
    });
    expect((await remove(heidi, account.id)).statusCode).toBe(404);
  });

  it('rechecks tokens on a schedule: revoked, disabled and expired ones show so, a few per sweep, each once a round', async () => {
    const ivan = await ctx.createUser();
    const names = ['Check revoked', 'Check disabled', 'Check expired', 'Check fine'];
    const tokens = names.map((_, index) => `check-token-${index}-zzzz`);
    for (const [index, name] of names.entries()) {
      const cfAccount = ctx.sandbox.control.addAccount({ name, plan: 'free' });
      ctx.sandbox.control.addToken({
        value: tokens[index]!,
        accountIds: [cfAccount.id],
        ...(index === 2 ? { expiresOn: new Date(Date.now() + 600_000).toISOString() } : {}),
      });
      expect((await add(ivan, { account_name: name, token: tokens[index]! })).statusCode).toBe(201);
    }
    ctx.sandbox.control.removeToken(tokens[0]!);
    ctx.sandbox.control.setTokenStatus(tokens[1]!, 'disabled');
    ctx.sandbox.control.setTokenStatus(tokens[2]!, 'expired');

    const checks = new TokenChecks(
      new AccountsRepository(ctx.db),
      createAppDeps(ctx.config, ctx.db),
      (err) => {
        throw err;
      },
    );
    // Just added: none is due before its round comes.
    const ivanDue = `SELECT count(*)::int AS count FROM cloudflare_accounts WHERE user_id = ${ivan.id} AND token_check_due <= now()`;
    expect((await ctx.db.query<{ count: number }>(ivanDue))[0]!.count).toBe(0);
    const later = new Date(Date.now() + TOKEN_CHECK_EVERY_MS + 60_000);
    // Every account of the database is due by then; a sweep takes at most its share.
    let swept = 0;
    for (let sweep = 0; sweep < 50; sweep++) {
      const taken = await checks.sweep(later);
      expect(taken).toBeLessThanOrEqual(TOKENS_PER_SWEEP);
      if (taken === 0) break;
      swept += taken;
    }
    expect(swept).toBeGreaterThanOrEqual(names.length);
    expect(await checks.sweep(later)).toBe(0);

    const states = Object.fromEntries(
      (await get(ivan, '/api/cloudflare/accounts'))
        .json()
        .map((a: { account_name: string; token_status: string; token_checked_at: string }) => [
          a.account_name,
          a.token_status,
        ]),
    );
    expect(states).toEqual({
      'Check revoked': 'revoked',
      'Check disabled': 'disabled',
      'Check expired': 'expired',
      'Check fine': 'active',
    });
  });
});
