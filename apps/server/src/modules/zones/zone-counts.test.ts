import type { ZonesPage, ZonesQuery } from '@guardian/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCloudflareTestContext, type CloudflareTestContext } from '../../test/cloudflare-context';
import type { TestUser } from '../../test/context';
import { ZONE_LIST_RECHECK_MS } from './zone-list-cache';

/**
 * What migration 056 keeps beside each zone row and each person's version (issue 36): the number of
 * the person's zones, and the account's name on each of its zones. Both must follow every change,
 * in the transaction that makes it.
 */
describe('the zones kept per person', () => {
  let ctx: CloudflareTestContext;

  beforeAll(async () => (ctx = await createCloudflareTestContext()));
  afterAll(() => ctx.close());

  const inject = async (
    user: TestUser,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) => {
    const response = await ctx.app.inject({ method, url, headers: user.headers, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response;
  };
  const sync = (user: TestUser) => inject(user, 'POST', '/api/cloudflare/zones/sync');
  const zonesPage = async (user: TestUser, query: ZonesQuery = {}): Promise<ZonesPage> => {
    const url = `/api/cloudflare/zones/page?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`;
    return (await inject(user, 'GET', url)).json();
  };

  // Changes made outside the zones module reach this process's kept answers within a second.
  const recheck = () => new Promise((resolve) => setTimeout(resolve, ZONE_LIST_RECHECK_MS + 20));

  /** The number kept for the person, and the one their rows say. */
  async function counts(user: TestUser): Promise<{ kept: number; rows: number }> {
    const [row] = await ctx.db.query<{ kept: number | null; rows: number }>(
      `SELECT (SELECT zones FROM zone_list_versions WHERE user_id = $1)::int AS kept,
              (SELECT count(*) FROM zones WHERE user_id = $1)::int AS rows`,
      [user.id],
    );
    return { kept: row!.kept ?? 0, rows: row!.rows };
  }
  const version = async (user: TestUser) =>
    (
      await ctx.db.query<{ version: number }>('SELECT version FROM zone_list_versions WHERE user_id = $1', [
        user.id,
      ])
    )[0]?.version;
  const expectZones = async (user: TestUser, count: number) => {
    expect(await counts(user)).toEqual({ kept: count, rows: count });
    expect((await zonesPage(user)).totalZones).toBe(count);
  };

  it('keeps the number of zones right through sync, add, delete, account removal, ownership moves and user removal', async () => {
    const user = await ctx.createUser();
    const one = await ctx.addAccount(user, { name: `One ${user.id}` });
    const two = await ctx.addAccount(user, { name: `Two ${user.id}` });
    const { control } = ctx.sandbox;
    const gone = control.addZone(one.account_id, 'gone.com');
    for (const domain of ['a.com', 'b.com']) control.addZone(one.account_id, domain);
    for (const domain of ['c.com', 'd.com']) control.addZone(two.account_id, domain);
    await sync(user);
    await expectZones(user, 5);

    // A sync that drops one and adds two; then one unchanged.
    const deleted = await ctx.sandbox.app.inject({
      method: 'DELETE',
      url: `/client/v4/zones/${gone.id}`,
      headers: { authorization: `Bearer ${one.tokenValue}` },
    });
    expect(deleted.statusCode).toBe(200);
    control.addZone(two.account_id, 'e.com');
    control.addZone(two.account_id, 'f.com');
    await sync(user);
    await expectZones(user, 6);
    // A sync that changes nothing writes nothing: the version, and the answers kept under it, stay.
    const before = await version(user);
    await sync(user);
    await expectZones(user, 6);
    expect(await version(user)).toBe(before);

    const added = (
      await inject(user, 'POST', '/api/cloudflare/zones', { account_id: one.account_id, domain: 'g.com' })
    ).json();
    await expectZones(user, 7);
    await inject(user, 'DELETE', `/api/cloudflare/zones/${added.result.id}`);
    await expectZones(user, 6);

    // The same Cloudflare account added by a second person: a zone deleted goes from both.
    const other = await ctx.createUser();
    await inject(other, 'POST', '/api/cloudflare/accounts', {
      account_name: `Shared ${other.id}`,
      token: two.tokenValue,
    });
    await sync(other);
    await expectZones(other, 4);
    await inject(other, 'DELETE', `/api/cloudflare/zones/${control.getZones(two.account_id)[0]!.id}`);
    await expectZones(other, 3);
    await expectZones(user, 5);

    // Removing an account takes its zones (by cascade).
    await inject(user, 'DELETE', `/api/cloudflare/accounts/${two.id}`);
    await recheck();
    await expectZones(user, 2);

    // An account given to another person takes its zones along (no route moves one yet: the database does).
    await ctx.db.query('UPDATE cloudflare_accounts SET user_id = $1 WHERE id = $2', [other.id, one.id]);
    await recheck();
    await expectZones(user, 0);
    await expectZones(other, 5);
    expect((await zonesPage(other, { search: 'a.com' })).zones.map((zone) => zone.accountName)).toEqual([
      one.account_name,
    ]);

    // A person removed takes everything with them, and the others keep their numbers.
    await ctx.db.query('DELETE FROM users WHERE id = $1', [other.id]);
    expect(await counts(other)).toEqual({ kept: 0, rows: 0 });
    await expectZones(user, 0);
  });

  it("shows an account's new name on its zones within a second, in the Account Name order and its search", async () => {
    const user = await ctx.createUser();
    const first = await ctx.addAccount(user, { name: `Alpha ${user.id}` });
    const second = await ctx.addAccount(user, { name: `Beta ${user.id}` });
    ctx.sandbox.control.addZone(first.account_id, 'first.com');
    ctx.sandbox.control.addZone(second.account_id, 'second.com');
    await sync(user);
    const byAccount = async (search = '') =>
      (await zonesPage(user, { sort: 'accountName', search })).zones.map((zone) => [
        zone.accountName,
        zone.domain,
      ]);
    expect(await byAccount()).toEqual([
      [`Alpha ${user.id}`, 'first.com'],
      [`Beta ${user.id}`, 'second.com'],
    ]);

    await inject(user, 'PUT', `/api/cloudflare/accounts/${first.id}`, { account_name: `Zulu ${user.id}` });
    await recheck();
    expect(await byAccount()).toEqual([
      [`Beta ${user.id}`, 'second.com'],
      [`Zulu ${user.id}`, 'first.com'],
    ]);
    expect(await byAccount('zulu')).toEqual([[`Zulu ${user.id}`, 'first.com']]);
    expect(await byAccount('alpha')).toEqual([]);
    // A new token alone leaves the name (and the count) as they were.
    await inject(user, 'PUT', `/api/cloudflare/accounts/${second.id}`, { token: second.tokenValue });
    expect(await byAccount('beta')).toEqual([[`Beta ${user.id}`, 'second.com']]);
    await expectZones(user, 2);
  });
});
