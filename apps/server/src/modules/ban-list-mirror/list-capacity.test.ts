import { LIST_PLAN_QUOTAS, capacityWarning, type CapacityAnswer } from '@guardian/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../app-error';
import { createCloudflareTestContext, type CloudflareTestContext } from '../../test/cloudflare-context';
import type { TestUser } from '../../test/context';
import { capacityOf, requireRoom, type AccountUsage } from './list-capacity';

const usage = (over: Partial<AccountUsage> = {}): AccountUsage => ({
  accountName: 'Acme',
  accountId: 'a'.repeat(32),
  plan: null,
  zonePlans: [],
  lists: 1,
  items: 100,
  enterpriseOnlyKinds: false,
  ...over,
});

describe('capacityOf', () => {
  it('reads the quotas of the plan the person set', () => {
    for (const plan of ['free', 'pro', 'business', 'enterprise'] as const) {
      const capacity = capacityOf(usage({ plan }));
      expect(capacity.plan).toBe(plan);
      expect(capacity.plan_source).toBe('setting');
      expect(capacity.lists).toEqual({ used: 1, limit: LIST_PLAN_QUOTAS[plan].lists });
      expect(capacity.items).toEqual({ used: 100, limit: LIST_PLAN_QUOTAS[plan].items });
    }
    expect(capacityOf(usage({ plan: 'pro' })).lists.limit).toBe(10);
    expect(capacityOf(usage({ plan: 'enterprise' })).items.limit).toBe(500_000);
  });

  it('infers Enterprise from what only Enterprise allows, else assumes Free', () => {
    expect(capacityOf(usage())).toMatchObject({ plan: 'free', plan_source: 'assumed' });
    expect(capacityOf(usage({ enterpriseOnlyKinds: true }))).toMatchObject({
      plan: 'enterprise',
      plan_source: 'inferred',
    });
    expect(capacityOf(usage({ lists: 11 }))).toMatchObject({ plan: 'enterprise', plan_source: 'inferred' });
    expect(capacityOf(usage({ items: 10_001 }))).toMatchObject({
      plan: 'enterprise',
      plan_source: 'inferred',
    });
    // At the standard plans' limits exactly: still nothing only Enterprise allows.
    expect(capacityOf(usage({ lists: 10, items: 10_000 }))).toMatchObject({
      plan: 'free',
      plan_source: 'assumed',
    });
    // The highest plan among the account's zones, below what the mirror proves.
    expect(capacityOf(usage({ zonePlans: ['free', 'business', 'pro'] }))).toMatchObject({
      plan: 'business',
      plan_source: 'zones',
    });
    expect(capacityOf(usage({ zonePlans: ['pro'], enterpriseOnlyKinds: true }))).toMatchObject({
      plan: 'enterprise',
      plan_source: 'inferred',
    });
    // A setting wins over the inference.
    expect(capacityOf(usage({ plan: 'pro', lists: 11 }))).toMatchObject({
      plan: 'pro',
      plan_source: 'setting',
    });
  });

  it('warns, and requireRoom refuses, an action past a quota, with the numbers', () => {
    const pro = capacityOf(usage({ plan: 'pro', lists: 10, items: 9_990 }));
    expect(capacityWarning(pro, { items: 10 })).toBeUndefined();
    expect(() => requireRoom(pro, { items: 10 })).not.toThrow();
    expect(capacityWarning(pro, { items: 11 })).toBe(
      '"Acme" has 9,990 of 10,000 list items (Pro plan): 11 more would pass it (10 left).',
    );
    expect(capacityWarning(pro, { lists: 1 })).toBe(
      '"Acme" has 10 of 10 lists (Pro plan): Cloudflare will refuse another.',
    );
    let refused: unknown;
    try {
      requireRoom(pro, { items: 50 });
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('BAD_REQUEST');
    expect((refused as AppError).message).toContain('50 more would pass it (10 left). Nothing was sent.');
  });
});

describe('the plan learned from Cloudflare', () => {
  let ctx: CloudflareTestContext;
  beforeAll(async () => (ctx = await createCloudflareTestContext()));
  afterAll(() => ctx.close());

  const capacity = async (user: TestUser, accountId: string) => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/cloudflare/capacity',
      headers: user.headers,
    });
    expect(response.statusCode).toBe(200);
    return (response.json() as CapacityAnswer).accounts.find((account) => account.account_id === accountId);
  };

  it('is known from the moment an account is added: its zones are read with it (issue 35 item 6)', async () => {
    const user = await ctx.createUser();
    const cfAccount = ctx.sandbox.control.addAccount({ name: `Business ${user.id}`, plan: 'business' });
    ctx.sandbox.control.addZone(cfAccount.id, `business-${user.id}.com`);
    const token = `business-token-${user.id}-0001`;
    ctx.sandbox.control.addToken({ value: token, accountIds: [cfAccount.id] });
    const added = await ctx.app.inject({
      method: 'POST',
      url: '/api/cloudflare/accounts',
      headers: user.headers,
      payload: { account_name: `Business ${user.id}`, token },
    });
    expect(added.statusCode, added.body).toBe(201);
    // No zones update asked for: the account's zone is already in the console, and its plan counts.
    expect(await capacity(user, cfAccount.id)).toMatchObject({
      plan: 'business',
      plan_source: 'zones',
      lists: { limit: 10 },
    });
    const zones = await ctx.app.inject({
      method: 'GET',
      url: '/api/cloudflare/zones',
      headers: user.headers,
    });
    expect(zones.body).toContain(`business-${user.id}.com`);
  });

  it('is known at once from the first page of zones; the rest come by a zones update queued with the add', async () => {
    const user = await ctx.createUser();
    const cfAccount = ctx.sandbox.control.addAccount({ name: `Many ${user.id}`, plan: 'pro' });
    // More than one page of zones (50 a page): the add reads one, the person does not wait for all.
    for (let i = 0; i < 60; i++) ctx.sandbox.control.addZone(cfAccount.id, `many-${user.id}-${i}.com`);
    const token = `many-token-${user.id}-0001`;
    ctx.sandbox.control.addToken({ value: token, accountIds: [cfAccount.id] });
    const added = await ctx.app.inject({
      method: 'POST',
      url: '/api/cloudflare/accounts',
      headers: user.headers,
      payload: { account_name: `Many ${user.id}`, token },
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(await capacity(user, cfAccount.id)).toMatchObject({ plan: 'pro', plan_source: 'zones' });
    const jobs = await ctx.app.inject({ method: 'GET', url: '/api/jobs', headers: user.headers });
    expect(jobs.json<{ jobs: { kind: string; target: string }[] }>().jobs).toContainEqual(
      expect.objectContaining({ kind: 'zones-sync', target: 'All zones' }),
    );
    // The zones update brings in every zone.
    const zoneCount = async () =>
      (
        await ctx.db.query<{ count: number }>(
          `SELECT count(*)::int AS count FROM zones z JOIN cloudflare_accounts a ON a.id = z.account_ref
           WHERE a.user_id = $1`,
          [user.id],
        )
      )[0]!.count;
    await expect.poll(zoneCount, { timeout: 20_000, interval: 100 }).toBe(60);
  });

  it("is the highest plan among the account's zones, once they are read; a plan the person sets wins", async () => {
    const user = await ctx.createUser();
    const pro = await ctx.addAccount(user, { name: `Pro ${user.id}`, plan: 'pro' });
    const free = await ctx.addAccount(user, { name: `Free ${user.id}`, plan: 'free' });
    ctx.sandbox.control.addZone(pro.account_id, `pro-${user.id}.com`);
    ctx.sandbox.control.addZone(free.account_id, `free-${user.id}.com`);

    // No zone read yet: nothing says, so Free, the strictest.
    expect(await capacity(user, pro.account_id)).toMatchObject({ plan: 'free', plan_source: 'assumed' });

    const synced = await ctx.app.inject({
      method: 'POST',
      url: '/api/cloudflare/zones/sync',
      headers: user.headers,
    });
    expect(synced.statusCode).toBe(200);
    expect(await capacity(user, pro.account_id)).toMatchObject({
      plan: 'pro',
      plan_source: 'zones',
      lists: { limit: 10 },
      items: { limit: 10_000 },
    });
    expect(await capacity(user, free.account_id)).toMatchObject({
      plan: 'free',
      plan_source: 'zones',
      lists: { limit: 1 },
    });

    const set = (plan: string | null) =>
      ctx.app.inject({
        method: 'PUT',
        url: `/api/cloudflare/capacity/${pro.account_id}/plan`,
        headers: user.headers,
        payload: { plan },
      });
    expect((await set('enterprise')).statusCode).toBe(200);
    expect(await capacity(user, pro.account_id)).toMatchObject({
      plan: 'enterprise',
      plan_source: 'setting',
    });
    // Cleared: back to what Cloudflare says.
    expect((await set(null)).statusCode).toBe(200);
    expect(await capacity(user, pro.account_id)).toMatchObject({ plan: 'pro', plan_source: 'zones' });
  });
});
