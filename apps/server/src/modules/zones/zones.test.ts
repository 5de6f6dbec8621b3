import { refusalOf } from '../../test/request';
import type { AddZoneResponse, CloudflareAccount, ErrorBody, Zone } from '@guardian/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCloudflareTestContext, type CloudflareTestContext } from '../../test/cloudflare-context';
import type { TestUser } from '../../test/context';
import { ZonesRepository } from './zones.repository';
import { ZONE_LIST_RECHECK_MS } from './zone-list-cache';

describe('zones', () => {
  let ctx: CloudflareTestContext;

  beforeAll(async () => (ctx = await createCloudflareTestContext()));
  afterAll(() => ctx.close());
  afterEach(() => {
    ctx.sandbox.control.clearFaults();
    vi.restoreAllMocks();
  });

  const listZones = async (user: TestUser): Promise<Zone[]> => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/cloudflare/zones',
      headers: user.headers,
    });
    expect(response.statusCode).toBe(200);
    return response.json();
  };
  const sync = (user: TestUser) =>
    ctx.app.inject({ method: 'POST', url: '/api/cloudflare/zones/sync', headers: user.headers });
  const addZone = (user: TestUser, payload: object) =>
    ctx.app.inject({ method: 'POST', url: '/api/cloudflare/zones', headers: user.headers, payload });
  const deleteZone = (user: TestUser, zoneId: string) =>
    ctx.app.inject({ method: 'DELETE', url: `/api/cloudflare/zones/${zoneId}`, headers: user.headers });

  /** The zones Cloudflare holds for an account, as the mirror should show them. */
  const cloudflareZones = (account: CloudflareAccount) =>
    ctx.sandbox.control
      .getZones(account.account_id)
      .map((zone) => ({
        id: zone.id,
        domain: zone.name,
        status: zone.status,
        name_servers: zone.name_servers,
      }))
      .sort((a, b) => a.domain.localeCompare(b.domain));
  const mirrored = (zones: Zone[], account: CloudflareAccount) =>
    zones
      .filter((zone) => zone.account_id === account.account_id)
      .map(({ id, domain, status, name_servers }) => ({ id, domain, status, name_servers }));

  async function userWithAccounts(...names: string[]) {
    const user = await ctx.createUser();
    const accounts = [];
    for (const name of names) accounts.push(await ctx.addAccount(user, { name: `${name} ${user.id}` }));
    return { user, accounts };
  }

  describe('GET /api/cloudflare/zones', () => {
    it('lists the zones of every account of the user, with the account, sorted by domain', async () => {
      const { user, accounts } = await userWithAccounts('Alpha', 'Beta');
      const alpha = accounts[0]!;
      const beta = accounts[1]!;
      const active = ctx.sandbox.control.addZone(alpha.account_id, 'zeta-example.com', { status: 'active' });
      const pending = ctx.sandbox.control.addZone(beta.account_id, 'alpha-example.com');
      expect((await sync(user)).json()).toEqual({ zones: 2 });

      expect(await listZones(user)).toEqual([
        {
          id: pending.id,
          domain: 'alpha-example.com',
          accountName: beta.account_name,
          account_id: beta.account_id,
          status: 'pending',
          name_servers: pending.name_servers,
        },
        {
          id: active.id,
          domain: 'zeta-example.com',
          accountName: alpha.account_name,
          account_id: alpha.account_id,
          status: 'active',
          name_servers: active.name_servers,
        },
      ]);
      expect(await listZones(await ctx.createUser())).toEqual([]);
    });

    const recheckInterval = () => new Promise((resolve) => setTimeout(resolve, ZONE_LIST_RECHECK_MS + 20));

    it('reads the zones in one query, then serves the unchanged list from memory, checking its version once a second', async () => {
      const few = await userWithAccounts('Few');
      const many = await userWithAccounts('Many');
      ctx.sandbox.control.addZone(few.accounts[0]!.account_id, 'one-zone.com');
      for (let i = 0; i < 120; i++)
        ctx.sandbox.control.addZone(many.accounts[0]!.account_id, `many-${i}.com`);
      await sync(few.user);
      await sync(many.user);

      // Only the statements a zones request makes are counted: the job queue's polls and heartbeats
      // and the sweeps (audit, expiry) run on the same database at their own times.
      const queries = vi.spyOn(ctx.db, 'query');
      const ofRequest = () =>
        queries.mock.calls.filter(([sql]) => /FROM zones|zone_list_versions|FROM users u/.test(sql));
      // One statement checks the version and answers the list only when it moved (json null otherwise).
      const zoneStatements = () =>
        Promise.all(
          queries.mock.calls.flatMap(([sql], i) =>
            /zone_list_versions/.test(sql)
              ? [queries.mock.results[i]!.value as Promise<{ json: unknown }[]>]
              : [],
          ),
        );
      const zoneReads = async () => (await zoneStatements()).filter(([row]) => row?.json !== null).length;
      const versionChecks = async () => (await zoneStatements()).length;
      expect(await listZones(few.user)).toHaveLength(1);
      const forOne = ofRequest().length;
      queries.mockClear();
      expect(await listZones(many.user)).toHaveLength(120);
      expect(ofRequest().length).toBe(forOne);
      expect(await zoneReads()).toBe(1);

      // Right after: no database work beyond the auth guard's.
      queries.mockClear();
      expect(await listZones(many.user)).toHaveLength(120);
      expect(await zoneReads()).toBe(0);
      expect(await versionChecks()).toBe(0);

      // A second later: one cheap version check, the list itself still from memory.
      await recheckInterval();
      queries.mockClear();
      expect(await listZones(many.user)).toHaveLength(120);
      expect(await zoneReads()).toBe(0);
      expect(await versionChecks()).toBe(1);
    });

    it('reads a changed list and its version in one statement, the first request after a change included (issue 36)', async () => {
      const { user, accounts } = await userWithAccounts('Changing');
      ctx.sandbox.control.addZone(accounts[0]!.account_id, 'first.com');
      await sync(user);
      const queries = vi.spyOn(ctx.db, 'query');
      const zoneStatements = () =>
        queries.mock.calls.filter(([sql]) => /FROM zones|zone_list_versions|cloudflare_accounts/.test(sql));
      expect(await listZones(user)).toHaveLength(1);
      expect(zoneStatements()).toHaveLength(1);

      ctx.sandbox.control.addZone(accounts[0]!.account_id, 'second.com');
      await sync(user);
      await recheckInterval();
      queries.mockClear();
      expect((await listZones(user)).map((zone) => zone.domain)).toEqual(['first.com', 'second.com']);
      expect(zoneStatements()).toHaveLength(1);
    });

    it('sees changes written by another server process within a second, and zones gone with a deleted account', async () => {
      const { user, accounts } = await userWithAccounts('Shared', 'Doomed');
      const shared = accounts[0]!;
      const doomed = accounts[1]!;
      ctx.sandbox.control.addZone(shared.account_id, 'before.com');
      ctx.sandbox.control.addZone(doomed.account_id, 'doomed.com');
      await sync(user);
      expect((await listZones(user)).map((zone) => zone.domain)).toEqual(['before.com', 'doomed.com']);

      // Another process shares the database but not this one's memory.
      const [ref] = await ctx.db.query<{ id: number }>(
        'SELECT id FROM cloudflare_accounts WHERE account_id = $1',
        [shared.account_id],
      );
      const elsewhere = {
        zoneId: 'f'.repeat(32),
        domain: 'elsewhere.com',
        status: 'active',
        nameServers: [],
        plan: null,
      };
      await ctx.db.transaction((tx) => new ZonesRepository(tx).upsert(ref!.id, elsewhere));
      await recheckInterval();
      expect((await listZones(user)).map((zone) => zone.domain)).toEqual([
        'before.com',
        'doomed.com',
        'elsewhere.com',
      ]);

      await ctx.db.query('DELETE FROM cloudflare_accounts WHERE account_id = $1', [doomed.account_id]);
      await recheckInterval();
      expect((await listZones(user)).map((zone) => zone.domain)).toEqual(['before.com', 'elsewhere.com']);
    });
  });

  describe('POST /api/cloudflare/zones', () => {
    it('creates the zone at Cloudflare, mirrors it and answers its name servers', async () => {
      const { user, accounts } = await userWithAccounts('Adder');
      const account = accounts[0]!;
      const response = await addZone(user, { account_id: account.account_id, domain: '  New-Site.COM. ' });
      expect(response.statusCode).toBe(201);
      const { result } = response.json<AddZoneResponse>();
      const [atCloudflare] = ctx.sandbox.control.getZones(account.account_id);
      expect(result).toEqual({
        id: atCloudflare!.id,
        name: 'new-site.com',
        status: 'pending',
        name_servers: atCloudflare!.name_servers,
      });
      expect(result.name_servers).toHaveLength(2);
      expect(mirrored(await listZones(user), account)).toEqual(cloudflareZones(account));
    });

    it('answers Cloudflare’s message for a duplicate, in errors[0].message, and changes nothing', async () => {
      const { user, accounts } = await userWithAccounts('Dup');
      const account = accounts[0]!;
      expect((await addZone(user, { account_id: account.account_id, domain: 'twice.com' })).statusCode).toBe(
        201,
      );
      const duplicate = await addZone(user, { account_id: account.account_id, domain: 'TWICE.com' });
      expect(duplicate.statusCode).toBe(400);
      expect(duplicate.json<ErrorBody>().errors[0]!.message).toBe('twice.com already exists');
      expect(await listZones(user)).toHaveLength(1);
    });

    it.each([
      [{ domain: 'example.com' }, 'account_id'],
      [{ account_id: '', domain: 'example.com' }, 'Account is required.'],
      [{ account_id: 'x' }, 'domain'],
      [{ account_id: 'x', domain: '   ' }, 'Domain name is required.'],
      [{ account_id: 'x', domain: 'localhost' }, 'Enter a domain name such as example.com.'],
      [{ account_id: 'x', domain: '203.0.113.10' }, 'Enter a domain name such as example.com.'],
      [{ account_id: 'x', domain: 'https://example.com/' }, 'Enter a domain name such as example.com.'],
      [{ account_id: 'x', domain: 'bad_label.example.com' }, 'Enter a domain name such as example.com.'],
    ])('refuses %j with 400 naming the problem, before Cloudflare', async (payload, message) => {
      const { user } = await userWithAccounts('Bad input');
      const before = ctx.sandbox.control.callCount({ method: 'POST', path: '/zones' });
      const response = await addZone(user, payload);
      expect(response.statusCode).toBe(400);
      expect(refusalOf(response.json<ErrorBody>())).toContain(message);
      expect(ctx.sandbox.control.callCount({ method: 'POST', path: '/zones' })).toBe(before);
    });

    it('refuses an account that is not one of the user’s with 404', async () => {
      const owner = await userWithAccounts('Owner');
      const { user } = await userWithAccounts('Other');
      const response = await addZone(user, {
        account_id: owner.accounts[0]!.account_id,
        domain: 'stolen.com',
      });
      expect(response.statusCode).toBe(404);
      expect(response.json<ErrorBody>().errors[0]!.message).toBe('Account not found.');
      expect(ctx.sandbox.control.getZones(owner.accounts[0]!.account_id)).toEqual([]);
    });

    it('stores nothing when Cloudflare fails', async () => {
      const { user, accounts } = await userWithAccounts('Outage');
      ctx.sandbox.control.injectFault({ method: 'POST', path: '/zones', status: 503 });
      const response = await addZone(user, { account_id: accounts[0]!.account_id, domain: 'down.com' });
      expect(response.statusCode).toBe(502);
      expect(response.json<ErrorBody>().errors[0]!.message).toBe(
        'Cloudflare is unavailable right now. Please try again.',
      );
      expect(await listZones(user)).toEqual([]);
    });
  });

  describe('POST /api/cloudflare/zones/sync', () => {
    it('follows Cloudflare’s pages of 50 and makes the mirror equal to Cloudflare', async () => {
      const { user, accounts } = await userWithAccounts('Big', 'Small');
      const big = accounts[0]!;
      const small = accounts[1]!;
      for (let i = 0; i < 120; i++)
        ctx.sandbox.control.addZone(big.account_id, `big-${String(i).padStart(3, '0')}.com`);
      const gone = ctx.sandbox.control.addZone(small.account_id, 'gone-soon.com');
      const staying = ctx.sandbox.control.addZone(small.account_id, 'staying.com');
      expect((await sync(user)).json()).toEqual({ zones: 122 });

      // Cloudflare changes behind the console's back: a zone deleted, one activated, one added.
      const deleted = await ctx.sandbox.app.inject({
        method: 'DELETE',
        url: `/client/v4/zones/${gone.id}`,
        headers: { authorization: `Bearer ${small.tokenValue}` },
      });
      expect(deleted.statusCode).toBe(200);
      ctx.sandbox.control.activateZone(staying.id);
      ctx.sandbox.control.addZone(small.account_id, 'brand-new.com');
      ctx.sandbox.control.resetCalls();

      expect((await sync(user)).json()).toEqual({ zones: 122 });
      const zones = await listZones(user);
      expect(mirrored(zones, big)).toEqual(cloudflareZones(big));
      expect(mirrored(zones, small)).toEqual(cloudflareZones(small));
      expect(zones.find((zone) => zone.id === staying.id)?.status).toBe('active');

      const pages = ctx.sandbox.control.callLog({ method: 'GET', path: '/zones' });
      expect(pages.filter((call) => call.token === big.tokenValue)).toHaveLength(3);
      expect(pages.filter((call) => call.token === small.tokenValue)).toHaveLength(1);
      for (const call of pages) expect(new URLSearchParams(call.query).get('per_page')).toBe('50');
    });

    it('keeps the old mirror when Cloudflare fails, and catches up on the next sync', async () => {
      const { user, accounts } = await userWithAccounts('Flaky');
      const account = accounts[0]!;
      ctx.sandbox.control.addZone(account.account_id, 'first.com');
      await sync(user);
      const before = await listZones(user);
      ctx.sandbox.control.addZone(account.account_id, 'second.com');

      ctx.sandbox.control.injectFault({ method: 'GET', path: '/zones', status: 503 });
      const failed = await sync(user);
      expect(failed.statusCode).toBe(502);
      expect(failed.json<ErrorBody>().errors[0]!.message).toBe(
        `Could not update the zones of "${account.account_name}": Cloudflare is unavailable right now. Please try again.`,
      );
      expect(await listZones(user)).toEqual(before);

      ctx.sandbox.control.clearFaults();
      expect((await sync(user)).statusCode).toBe(200);
      expect(mirrored(await listZones(user), account)).toEqual(cloudflareZones(account));
    });

    it('says when Cloudflare rate limits the account', async () => {
      const { user } = await userWithAccounts('Busy');
      ctx.sandbox.control.injectFault({ method: 'GET', path: '/zones', status: 429, retryAfterSeconds: 60 });
      const response = await sync(user);
      expect(response.statusCode).toBe(429);
      expect(response.json<ErrorBody>().message).toMatch(/rate limiting/);
    });

    it('answers zero zones for a user without accounts', async () => {
      const response = await sync(await ctx.createUser());
      expect(response.json()).toEqual({ zones: 0 });
    });
  });

  describe('DELETE /api/cloudflare/zones/{zone_id}', () => {
    it('deletes the zone at Cloudflare, then from the mirror', async () => {
      const { user, accounts } = await userWithAccounts('Deleter');
      const zone = ctx.sandbox.control.addZone(accounts[0]!.account_id, 'delete-me.com');
      ctx.sandbox.control.addZone(accounts[0]!.account_id, 'keep-me.com');
      await sync(user);

      const response = await deleteZone(user, zone.id);
      expect(response.statusCode).toBe(204);
      expect(ctx.sandbox.control.getZones(accounts[0]!.account_id).map((z) => z.name)).toEqual([
        'keep-me.com',
      ]);
      expect((await listZones(user)).map((z) => z.domain)).toEqual(['keep-me.com']);
    });

    it('removes the zone from every user who added the same Cloudflare account', async () => {
      const alice = await userWithAccounts('Team');
      const teamAccount = alice.accounts[0]!;
      const bob = await ctx.createUser();
      const added = await ctx.app.inject({
        method: 'POST',
        url: '/api/cloudflare/accounts',
        headers: bob.headers,
        payload: { account_name: 'Team too', token: teamAccount.tokenValue },
      });
      expect(added.statusCode).toBe(201);
      const zone = ctx.sandbox.control.addZone(teamAccount.account_id, 'team-zone.com');
      await sync(alice.user);
      await sync(bob);
      expect(await listZones(bob)).toHaveLength(1);

      expect((await deleteZone(alice.user, zone.id)).statusCode).toBe(204);
      expect(await listZones(bob)).toEqual([]);
    });

    it('answers 404 for another user’s zone and leaves it alone', async () => {
      const owner = await userWithAccounts('Victim');
      const zone = ctx.sandbox.control.addZone(owner.accounts[0]!.account_id, 'not-yours.com');
      await sync(owner.user);
      const { user } = await userWithAccounts('Intruder');

      for (const zoneId of [zone.id, 'no-such-zone']) {
        const response = await deleteZone(user, zoneId);
        expect(response.statusCode).toBe(404);
        expect(response.json<ErrorBody>().message).toBe('Zone not found.');
      }
      expect(ctx.sandbox.control.getZones(owner.accounts[0]!.account_id)).toHaveLength(1);
      expect(await listZones(owner.user)).toHaveLength(1);
    });

    it('forgets a zone that Cloudflare no longer has', async () => {
      const { user, accounts } = await userWithAccounts('Stale');
      const zone = ctx.sandbox.control.addZone(accounts[0]!.account_id, 'already-gone.com');
      await sync(user);
      await ctx.sandbox.app.inject({
        method: 'DELETE',
        url: `/client/v4/zones/${zone.id}`,
        headers: { authorization: `Bearer ${accounts[0]!.tokenValue}` },
      });
      expect((await deleteZone(user, zone.id)).statusCode).toBe(204);
      expect(await listZones(user)).toEqual([]);
    });

    it('keeps the zone when Cloudflare fails', async () => {
      const { user, accounts } = await userWithAccounts('Unlucky');
      const zone = ctx.sandbox.control.addZone(accounts[0]!.account_id, 'still-here.com');
      await sync(user);
      ctx.sandbox.control.injectFault({ method: 'DELETE', path: `/zones/${zone.id}`, status: 500 });
      const response = await deleteZone(user, zone.id);
      expect(response.statusCode).toBe(502);
      expect(ctx.sandbox.control.getZones(accounts[0]!.account_id)).toHaveLength(1);
      expect(await listZones(user)).toHaveLength(1);
    });
  });
});
