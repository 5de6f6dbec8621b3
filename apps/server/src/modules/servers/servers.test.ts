import {
  ADMIN_LEVEL,
  apiKeyEndpoints,
  serverApiEndpoints,
  serverEndpoints,
  type CreatedServer,
  type Server,
  type ServerBanAnswer,
  type ServerGroup,
  type ServerHourly,
  type ServerReviews,
} from '@guardian/contract';
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CloudflareTestContext } from '../../test/cloudflare-context';
import type { TestUser } from '../../test/context';
import { requestTo, type EndpointInput } from '../../test/request';
import { apiRoutes, endpointOf } from '../../test/security';
import { twoPeopleSuite, type TwoPeople } from '../../test/two-people';
import { pathParams } from '../../route-table';
import { ServersRepository } from './servers.repository';

type Account = Awaited<ReturnType<CloudflareTestContext['addAccount']>>;

/**
 * Server Management (issue 39): groups and servers owned by their person, server keys that reach only
 * the server API, the group's policy enforced on the server, and bans that reach Cloudflare through
 * the accounts' jobs, many in one write.
 */
describe('servers and their groups', () => {
  let { ctx, alice, bob } = {} as TwoPeople;
  twoPeopleSuite((suite) => ({ ctx, alice, bob } = suite));
  let admin: TestUser;
  let one: Account;
  let two: Account;
  const ids: Record<string, string> = {};

  const as = (user: TestUser, endpoint: Parameters<typeof requestTo>[0], input: EndpointInput = {}) =>
    ctx.app.inject({ ...requestTo(endpoint, input), headers: user.headers });
  const withKey = (key: string, endpoint: Parameters<typeof requestTo>[0], payload: unknown) =>
    ctx.app.inject({ ...requestTo(endpoint, { payload }), headers: { authorization: `Bearer ${key}` } });
  const valuesAt = (owner: Account, name: string) =>
    ctx.sandbox.control.getListItems(owner.account_id, ids[name]!).map((item) => String(item.ip));
  const itemAt = (owner: Account, name: string, ip: string) =>
    ctx.sandbox.control.getListItems(owner.account_id, ids[name]!).find((item) => String(item.ip) === ip);
  const writesAt = (method = 'POST') =>
    ctx.sandbox.control.callLog({ path: /\/items$/ }).filter((entry) => entry.method === method).length;
  /** A signed webhook call (Standard Webhooks), as a SOAR tool sends it. */
  const signed = (
    server: { id: number; signing_secret: string },
    message: Record<string, unknown>,
    {
      id = `msg_${Math.random().toString(36).slice(2)}`,
      at = new Date(),
      secret = server.signing_secret,
    } = {},
  ) => {
    const payload = JSON.stringify(message);
    return ctx.app.inject({
      method: 'POST',
      url: `/api/server-api/webhook/${server.id}`,
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign(id, at, payload),
      },
      payload,
    });
  };
  /** The message of a signed webhook call refused as unproven (401). */
  const refusal = async (...call: Parameters<typeof signed>) => {
    const answer = await signed(...call);
    expect(answer.statusCode).toBe(401);
    return answer.json<{ message: string }>().message;
  };
  const refusalsOf = async (serverId: number) =>
    (
      await ctx.db.query<{ reason: string }>(
        `SELECT reason FROM server_events WHERE server_id = $1 AND kind = 'refused' ORDER BY id`,
        [serverId],
      )
    ).map((row) => row.reason);

  async function until<T>(what: string, probe: () => T | Promise<T>, ms = 15_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Waits until no ban of these servers is pending: each reached its lists or was refused. */
  const nonePending = (serverIds: number[]) =>
    until('no ban pending', async () => {
      const rows = await ctx.db.query(
        `SELECT 1 FROM server_bans WHERE state = 'pending' AND server_id = ANY($1::bigint[])`,
        [serverIds],
      );
      return rows.length === 0;
    });

  async function list(owner: Account, user: TestUser, name: string, items: Record<string, unknown>[] = []) {
    const created = ctx.sandbox.control.addList(owner.account_id, { name, kind: 'ip' });
    if (items.length > 0) ctx.sandbox.control.seedListItems(owner.account_id, created.id, items);
    ids[name] = created.id;
    for (const url of ['/api/cloudflare/banlists/update', `/api/cloudflare/banlists/${created.id}/sync`]) {
      const answer = await ctx.app.inject({ method: 'POST', url, headers: user.headers });
      expect([200, 202]).toContain(answer.statusCode);
    }
    await until(`${name} in the mirror`, async () => {
      const [row] = await ctx.db.query('SELECT 1 FROM ban_lists WHERE list_id = $1', [created.id]);
      return row;
    });
  }

  async function group(user: TestUser, body: Record<string, unknown>): Promise<ServerGroup> {
    const answer = await as(user, serverEndpoints.groupCreate, { payload: body });
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json<ServerGroup>();
  }

  async function server(user: TestUser, groupId: number, name: string): Promise<CreatedServer> {
    const answer = await as(user, serverEndpoints.create, {
      payload: { name, group_id: groupId, integration: 'fail2ban' },
    });
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json<CreatedServer>();
  }

  const serverOf = async (user: TestUser, id: number) =>
    (await as(user, serverEndpoints.list)).json<Server[]>().find((entry) => entry.id === id)!;

  beforeAll(async () => {
    admin = await ctx.createUser({ level: ADMIN_LEVEL });
    one = await ctx.addAccount(alice, { name: 'Alice One', plan: 'enterprise' });
    two = await ctx.addAccount(alice, { name: 'Alice Two', plan: 'enterprise' });
    const bobs = await ctx.addAccount(bob, { name: 'Bob Co' });
    await list(one, alice, 'one_block');
    await list(two, alice, 'two_block', [
      { ip: '10.1.2.30', comment: 'holds 10.1.2.3 in its text' },
      { ip: '10.1.2.0/24', comment: 'a range holding 10.1.2.3' },
    ]);
    await list(bobs, bob, 'bob_block');
  });

  it('a group is its person’s: clear messages for a bad policy, 404 for another person’s list or group', async () => {
    // A default expiry longer than the longest allowed, and then a bad allowlist as well.
    const longDefault = {
      name: 'Bad',
      list_ids: [ids.one_block],
      default_duration_seconds: 7_200,
      max_duration_seconds: 3_600,
    };
    const bad = await as(alice, serverEndpoints.groupCreate, {
      payload: { ...longDefault, allowlist: ['10.0.0.0/8', 'not-an-address'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain(
      '"not-an-address" is not an IP address or CIDR.',
    );
    const order = await as(alice, serverEndpoints.groupCreate, { payload: longDefault });
    expect(order.statusCode).toBe(400);
    expect(order.body).toContain(
      'The default expiry must be set and no longer than the longest expiry allowed.',
    );
    expect(
      (await as(alice, serverEndpoints.groupCreate, { payload: { name: 'Bad', list_ids: [] } })).body,
    ).toContain('Choose at least one list for the bans.');

    // Bob's list is not found for Alice: nothing is created.
    const foreign = await as(alice, serverEndpoints.groupCreate, {
      payload: { name: 'Foreign', list_ids: [ids.bob_block] },
    });
    expect(foreign.statusCode).toBe(404);

    const created = await group(alice, { name: 'Web', list_ids: [ids.one_block] });
    expect(created).toMatchObject({
      name: 'Web',
      lists: [{ list_id: ids.one_block, list_name: 'one_block', account_name: 'Alice One' }],
      default_duration_seconds: 86_400,
      ceiling_per_hour: 600,
      servers: 0,
    });
    expect(
      (await as(alice, serverEndpoints.groupCreate, { payload: { name: 'web', list_ids: [ids.one_block] } }))
        .statusCode,
    ).toBe(409);
    // Bob neither sees, changes nor deletes it.
    expect((await as(bob, serverEndpoints.groupList)).json<ServerGroup[]>()).toEqual([]);
    const params = { group_id: created.id };
    expect(
      (
        await as(bob, serverEndpoints.groupUpdate, {
          params,
          payload: { name: 'Mine', list_ids: [ids.bob_block] },
        })
      ).statusCode,
    ).toBe(404);
    expect((await as(bob, serverEndpoints.groupRemove, { params })).statusCode).toBe(404);
    // A group with a server in it is not deleted; an empty one is.
    await server(alice, created.id, 'in-web');
    const used = await as(alice, serverEndpoints.groupRemove, { params });
    expect(used.statusCode).toBe(409);
    expect(used.json<{ message: string }>().message).toBe(
      'Servers are in this group: move or revoke them first.',
    );
    const empty = await group(alice, { name: 'Empty', list_ids: [ids.one_block] });
    expect(
      (await as(alice, serverEndpoints.groupRemove, { params: { group_id: empty.id } })).statusCode,
    ).toBe(204);
    const [audited] = await ctx.db.query<{ summary: string }>(
      `SELECT summary FROM audit_events WHERE action = 'servers.groupCreate' AND outcome = 'success' ORDER BY id LIMIT 1`,
    );
    expect(audited?.summary).toContain('created server group "Web"');
  });

  it('a server’s key is shown once, stored only hashed, and revocable by its person and by administrators', async () => {
    const web = await group(alice, { name: 'Keys', list_ids: [ids.one_block] });
    const created = await server(alice, web.id, 'web-1');
    expect(created.key).toMatch(/^gs_\d+_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ name: 'web-1', group_name: 'Keys', state: 'silent', last_seen_at: null });
    const listed = await as(alice, serverEndpoints.list);
    expect(listed.body).not.toContain(created.key);
    expect(listed.body).toContain(created.key.slice(-4));
    const [stored] = await ctx.db.query<{ row: string }>(
      'SELECT s::text AS row FROM servers s WHERE id = $1',
      [created.id],
    );
    expect(stored!.row).not.toContain(created.key.split('_')[2]!);

    // Bob cannot revoke it, nor read it; a level-1 person cannot use the administrators' routes.
    expect((await as(bob, serverEndpoints.revoke, { params: { server_id: created.id } })).statusCode).toBe(
      404,
    );
    expect((await as(bob, serverEndpoints.list)).json<Server[]>()).toEqual([]);
    expect(
      (await as(bob, serverEndpoints.userRevoke, { params: { id: alice.id, server_id: created.id } }))
        .statusCode,
    ).toBe(403);
    // Another person's server under someone else's id: not found.
    expect(
      (await as(admin, serverEndpoints.userRevoke, { params: { id: bob.id, server_id: created.id } }))
        .statusCode,
    ).toBe(404);
    expect(
      (await as(admin, serverEndpoints.userList, { params: { id: alice.id } }))
        .json<Server[]>()
        .map((s) => s.id),
    ).toContain(created.id);

    expect(
      (await withKey(created.key, serverApiEndpoints.heartbeat, { version: 'fail2ban 1.1.0' })).statusCode,
    ).toBe(200);
    expect(await serverOf(alice, created.id)).toMatchObject({ state: 'active', version: 'fail2ban 1.1.0' });

    expect(
      (await as(admin, serverEndpoints.userRevoke, { params: { id: alice.id, server_id: created.id } }))
        .statusCode,
    ).toBe(204);
    const refused = await withKey(created.key, serverApiEndpoints.ban, { address: '203.0.113.9' });
    expect(refused.statusCode).toBe(401);
    expect(refused.json<{ message: string }>().message).toBe('This server key is not valid or was revoked.');
    const after = await serverOf(alice, created.id);
    expect(after.state).toBe('revoked');
    expect(after.refused.day).toBe(1);
    expect(after.last_refusal?.reason).toBe('revoked key');
    // A made-up key of a real id, and a key of no server: 401 as well.
    const forged = created.key.slice(0, -4) + 'AAAA';
    expect((await withKey(forged, serverApiEndpoints.heartbeat, {})).statusCode).toBe(401);
    expect((await withKey(`gs_999999_${'A'.repeat(43)}`, serverApiEndpoints.heartbeat, {})).statusCode).toBe(
      401,
    );
  });

  it('a server key reaches only the server API; the server API takes neither a session nor an API key', async () => {
    const keys = await group(alice, { name: 'Scope', list_ids: [ids.one_block] });
    const { key } = await server(alice, keys.id, 'scope-1');
    const serverApi = new Set(Object.values(serverApiEndpoints).map((e) => `${e.method} ${e.path}`));
    const reached: string[] = [];
    for (const route of apiRoutes(ctx.app)) {
      if (serverApi.has(`${route.method} ${route.url}`) || endpointOf(route)?.access === 'public') continue;
      const url = pathParams(route.url).reduce((path, param) => path.replace(`:${param}`, '1'), route.url);
      const answer = await ctx.app.inject({
        method: route.method as 'GET',
        url,
        headers: { authorization: `Bearer ${key}` },
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
      });
      if (![401, 403].includes(answer.statusCode))
        reached.push(`${route.method} ${route.url}: ${answer.statusCode}`);
    }
    expect(reached).toEqual([]);

    const apiKey = (
      await as(alice, apiKeyEndpoints.create, { payload: { name: 'script', access: 'ban' } })
    ).json<{ key: string }>().key;
    for (const endpoint of Object.values(serverApiEndpoints)) {
      const payload = { type: 'ban', address: '203.0.113.1' };
      // The signed webhook names its server in the path.
      const input = { payload, ...(endpoint === serverApiEndpoints.webhook && { params: { server_id: 1 } }) };
      expect(
        (await ctx.app.inject({ ...requestTo(endpoint, input), headers: alice.headers })).statusCode,
      ).toBe(401);
      expect(
        (
          await ctx.app.inject({
            ...requestTo(endpoint, input),
            headers: { authorization: `Bearer ${apiKey}` },
          })
        ).statusCode,
      ).toBe(401);
      expect((await ctx.app.inject({ ...requestTo(endpoint, input) })).statusCode).toBe(401);
    }
  });

  it('bans reach every list of the group at Cloudflare, with the comment and expiry of its policy, and the server turns active', async () => {
    const policy = await group(alice, {
      name: 'Both accounts',
      list_ids: [ids.one_block, ids.two_block],
      default_duration_seconds: 3_600,
      max_duration_seconds: 7_200,
      comment_template: 'f2b {server} {jail}: {reason}',
    });
    const web = await server(alice, policy.id, 'web-2');
    expect((await serverOf(alice, web.id)).state).toBe('silent');
    const answer = await withKey(web.key, serverApiEndpoints.ban, {
      address: '203.0.113.77',
      duration_seconds: 999_999,
      jail: 'sshd',
      reason: '5 failures',
    });
    expect(answer.statusCode, answer.body).toBe(202);
    const taken = answer.json<ServerBanAnswer>();
    expect(taken).toMatchObject({ address: '203.0.113.77', state: 'pending', lists: 2 });
    // Cut to the group's longest expiry (2 hours), not the 11 days asked.
    const left = Date.parse(taken.expires_at!) - Date.now();
    expect(left).toBeLessThanOrEqual(7_200_000);
    expect(left).toBeGreaterThan(7_200_000 - 60_000);

    await until(
      'the ban at Cloudflare',
      () => itemAt(one, 'one_block', '203.0.113.77') && itemAt(two, 'two_block', '203.0.113.77'),
    );
    expect(itemAt(one, 'one_block', '203.0.113.77')!.comment).toBe('f2b web-2 sshd: 5 failures');
    // Recorded in the mirror once Cloudflare completed the write: a moment after the item is there.
    const mirrored = await until('the ban in the mirror', async () => {
      const [row] = await ctx.db.query<{ added_via: string; added_by: string; expires_at: Date }>(
        `SELECT i.added_via, i.added_by, i.expires_at FROM ban_list_items i JOIN ban_lists bl ON bl.id = i.ban_list_ref
          WHERE bl.list_id = $1 AND i.ip = '203.0.113.77'`,
        [ids.one_block],
      );
      return row;
    });
    expect(mirrored).toMatchObject({ added_via: 'api', added_by: `${alice.email} (servers)` });
    expect(mirrored!.expires_at.toISOString()).toBe(taken.expires_at);
    await until('the ban done', async () => {
      const rows = await ctx.db.query<{ state: string }>(
        `SELECT state FROM server_bans WHERE server_id = $1`,
        [web.id],
      );
      return rows.length === 2 && rows.every((row) => row.state === 'done');
    });
    const seen = await serverOf(alice, web.id);
    expect(seen).toMatchObject({ state: 'active', bans: { day: 1, week: 1 }, refused: { day: 0, week: 0 } });
    const [audited] = await ctx.db.query<{ summary: string; user_id: number }>(
      `SELECT summary, user_id FROM audit_events WHERE action = 'serverApi.ban' ORDER BY id DESC LIMIT 1`,
    );
    expect(audited?.summary).toContain(`${alice.email} (server "web-2") banned 203.0.113.77`);
    expect(Number(audited?.user_id)).toBe(alice.id);
  });

  it('refuses, with the reason, and records: a malformed address, one on the allowlist, bans over the ceiling', async () => {
    const strict = await group(alice, {
      name: 'Strict',
      list_ids: [ids.one_block],
      allowlist: ['192.0.2.0/24', '2001:db8::/32'],
      ceiling_per_hour: 2,
    });
    const { id, key } = await server(alice, strict.id, 'strict-1');
    const malformed = await withKey(key, serverApiEndpoints.ban, { address: '10.0.0.256' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json<{ message: string }>().message).toContain('"10.0.0.256"');
    const allowed = await withKey(key, serverApiEndpoints.ban, { address: '192.0.2.15' });
    expect(allowed.statusCode).toBe(403);
    expect(allowed.json<{ message: string }>().message).toBe(
      '192.0.2.15 is within 192.0.2.0/24, on the allowlist of the group "Strict": it is never banned.',
    );
    // A wider range holding an allowlisted one would ban it too.
    expect((await withKey(key, serverApiEndpoints.ban, { address: '192.0.0.0/16' })).statusCode).toBe(403);
    expect((await withKey(key, serverApiEndpoints.ban, { address: '2001:db8::5' })).statusCode).toBe(403);
    expect((await withKey(key, serverApiEndpoints.ban, { address: '198.51.100.1' })).statusCode).toBe(202);
    expect((await withKey(key, serverApiEndpoints.ban, { address: '198.51.100.2' })).statusCode).toBe(202);
    const over = await withKey(key, serverApiEndpoints.ban, { address: '198.51.100.3' });
    expect(over.statusCode).toBe(429);
    expect(over.json<{ message: string }>().message).toContain(
      'has sent 2 bans in the last hour, the ceiling of its group "Strict"',
    );
    const seen = await serverOf(alice, id);
    expect(seen.bans.day).toBe(2);
    expect(seen.refused.day).toBe(5);
    expect(seen.last_refusal?.reason).toBe('ceiling: 2 bans an hour');
    const reasons = await ctx.db.query<{ reason: string }>(
      `SELECT reason FROM server_events WHERE server_id = $1 AND kind = 'refused' ORDER BY id`,
      [id],
    );
    expect(reasons.map((row) => row.reason.split(':')[0])).toEqual([
      'malformed address',
      'allowlist',
      'allowlist',
      'allowlist',
      'ceiling',
    ]);
    await nonePending([id]);
    expect(valuesAt(one, 'one_block')).not.toContain('192.0.2.15');
    expect(valuesAt(one, 'one_block')).not.toContain('198.51.100.3');
  });

  it('coalesces the bans of many servers of an account into a write per list, not a write per ban', async () => {
    const shared = await group(alice, { name: 'Burst', list_ids: [ids.one_block], ceiling_per_hour: 1_000 });
    const servers = await Promise.all([1, 2, 3, 4].map((n) => server(alice, shared.id, `burst-${n}`)));
    // The first write is slow at Cloudflare: the bans sent meanwhile wait for the next one.
    ctx.sandbox.control.injectFault({ method: 'POST', path: /\/items$/, latencyMs: 1_000, times: 1 });
    const before = writesAt();
    const addresses = Array.from({ length: 40 }, (_, n) => `203.0.114.${n + 1}`);
    for (const [n, address] of addresses.entries()) {
      const answer = await withKey(servers[n % 4]!.key, serverApiEndpoints.ban, { address });
      expect(answer.statusCode).toBe(202);
    }
    await until('every ban at Cloudflare', () =>
      addresses.every((address) => valuesAt(one, 'one_block').includes(address)),
    );
    const writes = writesAt() - before;
    expect(writes).toBeGreaterThanOrEqual(1);
    expect(writes).toBeLessThanOrEqual(3);
  });

  it('Cloudflare refusing: the ban stays pending, the job tries again, and it lands once Cloudflare takes it', async () => {
    const flaky = await group(alice, { name: 'Flaky', list_ids: [ids.one_block] });
    const { key } = await server(alice, flaky.id, 'flaky-1');
    const fault = ctx.sandbox.control.injectFault({ method: 'POST', path: /\/items$/, status: 503 });
    expect((await withKey(key, serverApiEndpoints.ban, { address: '203.0.113.200' })).statusCode).toBe(202);
    await until('a refused write', () =>
      ctx.sandbox.control
        .callLog({ path: /\/items$/ })
        .some((call) => call.method === 'POST' && call.status === 503),
    );
    expect(valuesAt(one, 'one_block')).not.toContain('203.0.113.200');
    const beat = await withKey(key, serverApiEndpoints.heartbeat, {});
    expect(beat.json<{ pending: number }>().pending).toBe(1);
    ctx.sandbox.control.removeFault(fault.id);
    await until(
      'the ban at Cloudflare after the retry',
      () => valuesAt(one, 'one_block').includes('203.0.113.200'),
      20_000,
    );
    await until(
      'nothing pending',
      async () =>
        (await withKey(key, serverApiEndpoints.heartbeat, {})).json<{ pending: number }>().pending === 0,
    );
  });

  it('an unban removes the exact item from every list of the group, whatever other items hold its text', async () => {
    const unbans = await group(alice, { name: 'Unbans', list_ids: [ids.two_block] });
    const { key } = await server(alice, unbans.id, 'unban-1');
    expect((await withKey(key, serverApiEndpoints.ban, { address: '10.1.2.3' })).statusCode).toBe(202);
    await until('the ban at Cloudflare', () => valuesAt(two, 'two_block').includes('10.1.2.3'));
    const answer = await withKey(key, serverApiEndpoints.unban, { address: '10.1.2.3' });
    expect(answer.statusCode).toBe(202);
    await until('the unban at Cloudflare', () => !valuesAt(two, 'two_block').includes('10.1.2.3'));
    expect(valuesAt(two, 'two_block')).toEqual(expect.arrayContaining(['10.1.2.30', '10.1.2.0/24']));
    expect(
      (
        await serverOf(
          alice,
          (await as(alice, serverEndpoints.list)).json<Server[]>().find((s) => s.name === 'unban-1')!.id,
        )
      ).unbans.day,
    ).toBe(1);
  });

  it('the signed webhook: a good signature is taken (202), a bad one, a stale timestamp and a replayed id are refused (401) and recorded', async () => {
    const soar = await group(alice, { name: 'SOAR', list_ids: [ids.one_block] });
    const created = await server(alice, soar.id, 'soar-1');
    expect(created.signing_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // Stored encrypted: the row holds neither the secret nor its bytes.
    const [row] = await ctx.db.query<{ row: string }>('SELECT s::text AS row FROM servers s WHERE id = $1', [
      created.id,
    ]);
    expect(row!.row).not.toContain(created.signing_secret.slice(6));
    expect((await as(alice, serverEndpoints.list)).body).not.toContain(created.signing_secret);

    const good = await signed(
      created,
      { type: 'ban', address: '203.0.113.150', duration_seconds: 7_200 },
      {
        id: 'msg_once',
      },
    );
    expect(good.statusCode, good.body).toBe(202);
    expect(good.json<ServerBanAnswer>()).toMatchObject({ address: '203.0.113.150', state: 'pending' });
    await until('the signed ban at Cloudflare', () => valuesAt(one, 'one_block').includes('203.0.113.150'));
    const [audited] = await ctx.db.query<{ summary: string }>(
      `SELECT summary FROM audit_events WHERE action = 'serverApi.webhook' ORDER BY id DESC LIMIT 1`,
    );
    expect(audited?.summary).toContain(
      `${alice.email} (server "soar-1") banned 203.0.113.150 (signed webhook)`,
    );

    // The same message again: a replay.
    expect(
      await refusal(
        created,
        { type: 'ban', address: '203.0.113.150', duration_seconds: 7_200 },
        { id: 'msg_once' },
      ),
    ).toBe('The webhook call was refused: the webhook-id "msg_once" was already used.');
    const forger = { secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}` };
    expect(await refusal(created, { type: 'ban', address: '203.0.113.151' }, forger)).toBe(
      'The webhook call was refused: the signature does not match.',
    );
    expect(
      await refusal(
        created,
        { type: 'ban', address: '203.0.113.152' },
        { at: new Date(Date.now() - 6 * 60_000) },
      ),
    ).toContain('more than 5 minutes off');
    // A body changed after signing is a bad signature too; no headers at all as well.
    const tampered = await ctx.app.inject({
      ...(await (async () => {
        const at = new Date();
        const payload = JSON.stringify({ type: 'ban', address: '203.0.113.153' });
        return {
          method: 'POST' as const,
          url: `/api/server-api/webhook/${created.id}`,
          headers: {
            'content-type': 'application/json',
            'webhook-id': 'msg_tampered',
            'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
            'webhook-signature': new Webhook(created.signing_secret).sign('msg_tampered', at, payload),
          },
          payload: payload.replace('153', '154'),
        };
      })()),
    });
    expect(tampered.statusCode).toBe(401);
    expect(
      (await ctx.app.inject({ method: 'POST', url: `/api/server-api/webhook/${created.id}`, payload: {} }))
        .statusCode,
    ).toBe(401);
    // The server key is not a signature; another server's id is not this one's.
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: `/api/server-api/webhook/${created.id}`,
          headers: { authorization: `Bearer ${created.key}` },
          payload: { type: 'ban', address: '203.0.113.155' },
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (await signed({ ...created, id: 999_999 }, { type: 'ban', address: '203.0.113.156' })).statusCode,
    ).toBe(401);
    // Refusals recorded once a minute per reason: the replay, the bad signatures, the stale one.
    expect(await refusalsOf(created.id)).toEqual(['replayed message', 'bad signature', 'stale timestamp']);
    expect((await serverOf(alice, created.id)).last_refusal?.reason).toBe('stale timestamp');
    for (const address of [
      '203.0.113.151',
      '203.0.113.152',
      '203.0.113.153',
      '203.0.113.154',
      '203.0.113.155',
    ])
      expect(valuesAt(one, 'one_block')).not.toContain(address);

    // A bad message with a good signature: the policy's answers, as the server API gives them.
    expect((await signed(created, { type: 'ban', address: '10.0.0.256' })).statusCode).toBe(400);
    expect((await signed(created, { type: 'block', address: '203.0.113.157' })).statusCode).toBe(400);
    const unbanned = await signed(created, { type: 'unban', address: '203.0.113.150' });
    expect(unbanned.statusCode).toBe(202);
    await until(
      'the signed unban at Cloudflare',
      () => !valuesAt(one, 'one_block').includes('203.0.113.150'),
    );

    // A new signing secret: the old one stops working; another person's server is not found.
    expect(
      (await as(bob, serverEndpoints.signingSecret, { params: { server_id: created.id } })).statusCode,
    ).toBe(404);
    const renewed = await as(alice, serverEndpoints.signingSecret, { params: { server_id: created.id } });
    expect(renewed.statusCode).toBe(200);
    const secret = renewed.json<{ signing_secret: string }>().signing_secret;
    expect(secret).not.toBe(created.signing_secret);
    expect((await signed(created, { type: 'ban', address: '203.0.113.158' })).statusCode).toBe(401);
    expect(
      (await signed({ ...created, signing_secret: secret }, { type: 'ban', address: '203.0.113.158' }))
        .statusCode,
    ).toBe(202);
    // A revoked server's webhook is refused.
    await as(alice, serverEndpoints.revoke, { params: { server_id: created.id } });
    expect(
      (await signed({ ...created, signing_secret: secret }, { type: 'ban', address: '203.0.113.159' }))
        .statusCode,
    ).toBe(401);
    expect(
      (await as(alice, serverEndpoints.signingSecret, { params: { server_id: created.id } })).statusCode,
    ).toBe(409);
  });

  it('review: bans wait until a person approves them (then they reach Cloudflare) or rejects them (never)', async () => {
    const reviewed = await group(alice, { name: 'Reviewed', list_ids: [ids.one_block], review: true });
    expect(reviewed.review).toBe(true);
    const { id, key } = await server(alice, reviewed.id, 'review-1');
    const waiting = await withKey(key, serverApiEndpoints.ban, { address: '198.51.100.80', jail: 'sshd' });
    expect(waiting.statusCode).toBe(202);
    expect(waiting.json<ServerBanAnswer>()).toMatchObject({ state: 'review', expires_at: null });
    for (const address of ['198.51.100.81', '198.51.100.82'])
      expect((await withKey(key, serverApiEndpoints.ban, { address })).statusCode).toBe(202);
    const [queued] = await ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM server_bans WHERE server_id = $1',
      [id],
    );
    expect(queued!.n).toBe(0);
    expect((await serverOf(alice, id)).in_review).toBe(3);

    const reviews = (await as(alice, serverEndpoints.reviewList)).json<ServerReviews>();
    expect(reviews.total).toBe(3);
    expect(reviews.reviews.map((review) => review.address)).toEqual([
      '198.51.100.80',
      '198.51.100.81',
      '198.51.100.82',
    ]);
    expect(reviews.reviews[0]).toMatchObject({
      server_name: 'review-1',
      group_name: 'Reviewed',
      duration_seconds: 86_400,
    });
    const [first, second, third] = reviews.reviews.map((review) => review.id);
    // Bob sees none of them and decides none of them: all or nothing, 404.
    expect((await as(bob, serverEndpoints.reviewList)).json<ServerReviews>().total).toBe(0);
    expect((await as(bob, serverEndpoints.reviewApprove, { payload: { ids: [first] } })).statusCode).toBe(
      404,
    );
    expect((await as(alice, serverEndpoints.reviewApprove, { payload: { ids: [] } })).statusCode).toBe(400);

    const approved = await as(alice, serverEndpoints.reviewApprove, { payload: { ids: [first] } });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toEqual({ decided: 1 });
    await until('the approved ban at Cloudflare', () => valuesAt(one, 'one_block').includes('198.51.100.80'));
    const mirrored = await until('the approved ban in the mirror', async () => {
      const [item] = await ctx.db.query<{ expires_at: Date }>(
        `SELECT i.expires_at FROM ban_list_items i JOIN ban_lists bl ON bl.id = i.ban_list_ref
          WHERE bl.list_id = $1 AND i.ip = '198.51.100.80'`,
        [ids.one_block],
      );
      return item;
    });
    // Its day counts from the approval.
    expect(mirrored!.expires_at.getTime()).toBeGreaterThan(Date.now() + 86_400_000 - 120_000);

    expect((await as(alice, serverEndpoints.reviewReject, { payload: { ids: [second] } })).statusCode).toBe(
      200,
    );
    // Decided already: not waiting any more.
    expect(
      (await as(alice, serverEndpoints.reviewApprove, { payload: { ids: [second, third] } })).statusCode,
    ).toBe(404);
    // The server unbanning an address withdraws its waiting ban.
    expect((await withKey(key, serverApiEndpoints.unban, { address: '198.51.100.82' })).statusCode).toBe(202);
    expect((await as(alice, serverEndpoints.reviewList)).json<ServerReviews>().total).toBe(0);
    await nonePending([id]);
    expect(valuesAt(one, 'one_block')).not.toContain('198.51.100.81');
    expect(valuesAt(one, 'one_block')).not.toContain('198.51.100.82');
    const [audited] = await ctx.db.query<{ summary: string }>(
      `SELECT summary FROM audit_events WHERE action = 'servers.reviewReject' ORDER BY id DESC LIMIT 1`,
    );
    expect(audited?.summary).toBe(`${alice.email} rejected a server ban waiting for review`);
  });

  it('coalesces the unbans of many servers of an account into a delete per list, not a delete per unban', async () => {
    const shared = await group(alice, {
      name: 'Unburst',
      list_ids: [ids.one_block],
      ceiling_per_hour: 1_000,
    });
    const servers = await Promise.all([1, 2, 3, 4].map((n) => server(alice, shared.id, `unburst-${n}`)));
    const addresses = Array.from({ length: 40 }, (_, n) => `203.0.115.${n + 1}`);
    for (const [n, address] of addresses.entries())
      expect((await withKey(servers[n % 4]!.key, serverApiEndpoints.ban, { address })).statusCode).toBe(202);
    await until('every ban at Cloudflare', () =>
      addresses.every((address) => valuesAt(one, 'one_block').includes(address)),
    );
    await nonePending(servers.map((s) => s.id));
    // The first delete is slow at Cloudflare: the unbans sent meanwhile wait for the next one.
    ctx.sandbox.control.injectFault({ method: 'DELETE', path: /\/items$/, latencyMs: 1_000, times: 1 });
    const before = writesAt('DELETE');
    for (const [n, address] of addresses.entries())
      expect((await withKey(servers[n % 4]!.key, serverApiEndpoints.unban, { address })).statusCode).toBe(
        202,
      );
    await until('every unban at Cloudflare', () =>
      addresses.every((address) => !valuesAt(one, 'one_block').includes(address)),
    );
    const deletes = writesAt('DELETE') - before;
    expect(deletes).toBeGreaterThanOrEqual(1);
    expect(deletes).toBeLessThanOrEqual(3);
    expect((await serverOf(alice, servers[0]!.id)).unbans.day).toBe(10);
  });

  it('a refused ban raises an alert, one per server and reason, counting up', async () => {
    const guarded = await group(alice, {
      name: 'Guarded',
      list_ids: [ids.one_block],
      allowlist: ['192.0.2.0/24'],
      ceiling_per_hour: 1,
    });
    const { id, key } = await server(alice, guarded.id, 'guarded-1');
    expect((await withKey(key, serverApiEndpoints.ban, { address: '192.0.2.1' })).statusCode).toBe(403);
    expect((await withKey(key, serverApiEndpoints.ban, { address: '192.0.2.2' })).statusCode).toBe(403);
    expect((await withKey(key, serverApiEndpoints.ban, { address: '198.51.100.90' })).statusCode).toBe(202);
    expect((await withKey(key, serverApiEndpoints.ban, { address: '198.51.100.91' })).statusCode).toBe(429);
    const alerts = await ctx.db.query<{ kind: string; title: string; count: number; subject_id: string }>(
      `SELECT kind, title, count, subject_id FROM alerts WHERE user_id = $1 AND kind = 'server-refused'
        AND subject_id = $2 ORDER BY id`,
      [alice.id, String(id)],
    );
    expect(alerts).toEqual([
      {
        kind: 'server-refused',
        title:
          'A ban from server "guarded-1" was refused (on the allowlist): 192.0.2.2 is within 192.0.2.0/24',
        count: 2,
        subject_id: String(id),
      },
      {
        kind: 'server-refused',
        title:
          'A ban from server "guarded-1" was refused (over the ceiling): ceiling: 1 bans an hour, 198.51.100.91 refused',
        count: 1,
        subject_id: String(id),
      },
    ]);
    // Bob has none of them.
    const [bobs] = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM alerts WHERE user_id = $1 AND kind = 'server-refused'`,
      [bob.id],
    );
    expect(bobs!.n).toBe(0);
  });

  it('counts the 24 h and 7 d figures by the hour, and forgets what is older', async () => {
    const counted = await group(alice, { name: 'Counted', list_ids: [ids.one_block] });
    const { id } = await server(alice, counted.id, 'counted-1');
    await ctx.db.query(
      `INSERT INTO server_counts (server_id, hour, bans, unbans, refused) VALUES
         ($1, date_trunc('hour', now()) - interval '3 hours', 5, 1, 2),
         ($1, date_trunc('hour', now()) - interval '3 days', 7, 3, 4),
         ($1, date_trunc('hour', now()) - interval '9 days', 100, 100, 100)`,
      [id],
    );
    expect(await serverOf(alice, id)).toMatchObject({
      bans: { day: 5, week: 12 },
      unbans: { day: 1, week: 4 },
      refused: { day: 2, week: 6 },
    });
    await new ServersRepository(ctx.db).forgetOld();
    const [left] = await ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM server_counts WHERE server_id = $1',
      [id],
    );
    expect(left!.n).toBe(2);
  });
  it("answers each hour of the last 24 for the person's servers, and 404 for another person's", async () => {
    const charted = await group(alice, { name: 'Charted', list_ids: [ids.one_block] });
    const busy = await server(alice, charted.id, 'charted-1');
    const quiet = await server(alice, charted.id, 'charted-2');
    await ctx.db.query(
      `INSERT INTO server_counts (server_id, hour, bans, unbans, refused) VALUES
         ($1, date_trunc('hour', now()), 4, 0, 1),
         ($1, date_trunc('hour', now()) - interval '5 hours', 3, 2, 0),
         ($1, date_trunc('hour', now()) - interval '23 hours', 1, 0, 0),
         ($1, date_trunc('hour', now()) - interval '24 hours', 50, 50, 50)`,
      [busy.id],
    );
    const answer = await as(alice, serverEndpoints.hourly, {
      query: { server_ids: `${quiet.id},${busy.id},${busy.id}` },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const { hours, servers } = answer.json<ServerHourly>();
    expect(hours).toHaveLength(24);
    const [nowHour] = await ctx.db.query<{ at: Date }>(`SELECT date_trunc('hour', now()) AS at`);
    expect(hours[23]).toBe(nowHour!.at.toISOString());
    expect(Date.parse(hours[23]!) - Date.parse(hours[0]!)).toBe(23 * 3_600_000);
    // In the order asked, once each; the hour 24 hours ago is outside, as in the list's 24 h figure.
    expect(servers.map((entry) => entry.server_id)).toEqual([quiet.id, busy.id]);
    expect(servers[0]).toMatchObject({ bans: Array(24).fill(0), refused: Array(24).fill(0) });
    const expected = (at: Record<number, number>) => Array.from({ length: 24 }, (_, i) => at[i] ?? 0);
    expect(servers[1]).toEqual({
      server_id: busy.id,
      bans: expected({ 0: 1, 18: 3, 23: 4 }),
      unbans: expected({ 18: 2 }),
      refused: expected({ 23: 1 }),
    });
    expect((await serverOf(alice, busy.id)).bans.day).toBe(8);

    // Another person's server among them: not found, and nothing of Alice's told to Bob.
    const bobs = await group(bob, { name: 'Bob charted', list_ids: [ids.bob_block] });
    const bobServer = await server(bob, bobs.id, 'bob-1');
    const foreign = await as(alice, serverEndpoints.hourly, {
      query: { server_ids: `${busy.id},${bobServer.id}` },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json<{ message: string }>().message).toBe('Server not found.');
    expect(
      (await as(bob, serverEndpoints.hourly, { query: { server_ids: String(busy.id) } })).statusCode,
    ).toBe(404);

    // Bounded and checked: a clear 400, never a 5xx.
    for (const [server_ids, message] of [
      ['', 'server_ids is required'],
      ['1,abc', 'A server id must be a number.'],
      ['99999999999', 'A server id must be a number.'],
      [Array.from({ length: 501 }, (_, i) => i + 1).join(','), 'At most 500 servers a request.'],
    ] as const) {
      const refused = await as(alice, serverEndpoints.hourly, { query: { server_ids } });
      expect(refused.statusCode, server_ids.slice(0, 20)).toBe(400);
      expect(refused.json<{ message: string }>().message).toContain(message);
    }
  });
});
