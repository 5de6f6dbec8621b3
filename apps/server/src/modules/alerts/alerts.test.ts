import type { Alert, AlertsPage, BanList } from '@guardian/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppDeps } from '../../app';
import { createCloudflareTestContext, type CloudflareTestContext } from '../../test/cloudflare-context';
import type { TestUser } from '../../test/context';
import { AccountsRepository, TOKEN_CHECK_EVERY_MS, TokenChecks } from '../accounts';
import { ListCapacity } from '../ban-list-mirror';
import { AlertCauses } from './alert-causes';

describe('Alerts', () => {
  let ctx: CloudflareTestContext;
  const fail = (err: unknown) => {
    throw err;
  };

  beforeAll(async () => {
    ctx = await createCloudflareTestContext();
  });
  afterAll(() => ctx.close());

  const call = (who: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    ctx.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
  const alertsOf = async (who: TestUser, query = '') => {
    const response = await call(who, 'GET', `/api/alerts${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<AlertsPage>().alerts;
  };
  const openCount = async (who: TestUser) =>
    (await call(who, 'GET', '/api/alerts/summary')).json<{ open: number }>().open;
  const newList = async (who: TestUser, account: string, name: string) => {
    const response = await call(who, 'POST', '/api/cloudflare/banlists', {
      account_name: account,
      list_name: name,
      kind: 'ip',
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<BanList>();
  };

  it('raises one alert per cause, counted; each person sees, acknowledges and resolves only their own, audited', async () => {
    const ada = await ctx.createUser();
    const admin = await ctx.createUser({ level: 0 });
    expect(await openCount(ada)).toBe(0);
    const key = await call(ada, 'POST', '/api/me/api-keys', { name: 'fail2ban', access: 'ban' });
    expect(key.statusCode).toBe(201);
    const [alert] = await alertsOf(ada);
    expect(alert).toMatchObject({
      kind: 'api-key-created',
      severity: 'info',
      state: 'open',
      count: 1,
      title: expect.stringContaining('"fail2ban"'),
    });
    expect(await openCount(ada)).toBe(1);
    // An administrator sees only their own alerts: another person's is not found.
    expect(await alertsOf(admin)).toEqual([]);
    expect((await call(admin, 'POST', `/api/alerts/${alert!.id}/acknowledge`)).statusCode).toBe(404);
    expect((await call(admin, 'POST', `/api/alerts/${alert!.id}/resolve`)).statusCode).toBe(404);

    const acknowledged = await call(ada, 'POST', `/api/alerts/${alert!.id}/acknowledge`);
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);
    expect(acknowledged.json<Alert>()).toMatchObject({
      state: 'acknowledged',
      acknowledged_at: expect.any(String),
    });
    expect(await openCount(ada)).toBe(0);
    const resolved = await call(ada, 'POST', `/api/alerts/${alert!.id}/resolve`);
    expect(resolved.json<Alert>()).toMatchObject({ state: 'resolved', resolved_at: expect.any(String) });
    // Acknowledging a resolved alert changes nothing.
    expect((await call(ada, 'POST', `/api/alerts/${alert!.id}/acknowledge`)).json<Alert>().state).toBe(
      'resolved',
    );

    const trail = await ctx.db.query<{ action: string; summary: string }>(
      `SELECT action, summary FROM audit_events WHERE user_id = $1 AND action LIKE 'alerts.%' ORDER BY id`,
      [ada.id],
    );
    expect(trail.map((event) => event.summary)).toEqual([
      `${ada.email} acknowledged alert ${alert!.id}`,
      `${ada.email} resolved alert ${alert!.id}`,
      `${ada.email} acknowledged alert ${alert!.id}`,
    ]);
  });

  it('pages by cursor, filters by state, kind and severity, and refuses bad filters with a 400', async () => {
    const bo = await ctx.createUser();
    for (let index = 0; index < 5; index++)
      await call(bo, 'POST', '/api/me/api-keys', { name: `key ${index}`, access: 'read' });
    const first = (await call(bo, 'GET', '/api/alerts?limit=2')).json<AlertsPage>();
    expect(first.alerts.map((alert) => alert.title)).toEqual([
      expect.stringContaining('"key 4"'),
      expect.stringContaining('"key 3"'),
    ]);
    const second = (
      await call(bo, 'GET', `/api/alerts?limit=2&before=${first.next_cursor}`)
    ).json<AlertsPage>();
    expect(second.alerts.map((alert) => alert.title)).toEqual([
      expect.stringContaining('"key 2"'),
      expect.stringContaining('"key 1"'),
    ]);
    const last = (
      await call(bo, 'GET', `/api/alerts?limit=2&before=${second.next_cursor}`)
    ).json<AlertsPage>();
    expect(last.alerts).toHaveLength(1);
    expect(last.next_cursor).toBeNull();

    await call(bo, 'POST', `/api/alerts/${first.alerts[0]!.id}/resolve`);
    expect(await alertsOf(bo, '?state=resolved')).toHaveLength(1);
    expect(await alertsOf(bo, '?state=active')).toHaveLength(4);
    expect(await alertsOf(bo, '?kind=api-key-created&severity=info')).toHaveLength(5);
    expect(await alertsOf(bo, '?kind=job-failed')).toHaveLength(0);
    for (const query of [
      'state=gone',
      'kind=nope',
      'severity=loud',
      'limit=1000',
      'before=-1',
      'before=abc',
    ]) {
      const refused = await call(bo, 'GET', `/api/alerts?${query}`);
      expect(refused.statusCode, query).toBe(400);
    }
    expect((await call(bo, 'POST', '/api/alerts/abc/resolve')).statusCode).toBe(400);
    expect((await call(bo, 'POST', '/api/alerts/99999999/resolve')).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/alerts' })).statusCode).toBe(401);
  });

  it('a failed job raises its alert once per cause; a later run of the same job that succeeds resolves it by itself', async () => {
    const cy = await ctx.createUser();
    await ctx.addAccount(cy, { name: 'Sync Co' });
    const list = await newList(cy, 'Sync Co', 'sync_me');
    const sync = () => call(cy, 'POST', `/api/cloudflare/banlists/${list.list_id}/sync`);
    const fault = ctx.sandbox.control.injectFault({ method: 'GET', path: /\/items$/, status: 500 });
    expect((await sync()).statusCode).toBeGreaterThanOrEqual(500);
    expect((await sync()).statusCode).toBeGreaterThanOrEqual(500);
    ctx.sandbox.control.removeFault(fault.id);
    // A job's answer goes to its caller as it ends, and its alert is raised or cleared just after.
    const jobAlert = async () => (await alertsOf(cy, '?kind=job-failed'))[0];
    await expect.poll(async () => (await jobAlert())?.count).toBe(2);
    const failed = await jobAlert();
    expect(failed).toMatchObject({
      state: 'open',
      count: 2,
      severity: 'warning',
      title: expect.stringContaining('Update from Cloudflare of sync_me failed'),
      subject: { type: 'account', name: 'Sync Co' },
    });
    expect((await sync()).statusCode).toBe(200);
    await expect.poll(async () => (await jobAlert())?.state).toBe('cleared');
    expect(await jobAlert()).toMatchObject({
      id: failed!.id,
      state: 'cleared',
      resolved_at: expect.any(String),
    });
    expect(await openCount(cy)).toBe(0);
  });

  it('a ban Cloudflare refused raises an alert naming the value and list; adding it once there is room resolves it', async () => {
    const di = await ctx.createUser();
    const account = await ctx.addAccount(di, { name: 'Full Co', plan: 'pro' });
    const list = await newList(di, 'Full Co', 'blocked');
    // Cloudflare's copy of another list fills the account's 10,000 items (Guardian's mirror does not know).
    const filler = ctx.sandbox.control.addList(account.account_id, { name: 'filler', kind: 'ip' });
    ctx.sandbox.control.seedListItems(
      account.account_id,
      filler.id,
      Array.from({ length: 10_000 }, (_, index) => ({ ip: `10.${index >> 8}.${index & 255}.1` })),
    );
    const add = () =>
      call(di, 'POST', `/api/cloudflare/banlists/${list.list_id}/items`, {
        ip: '198.51.100.9',
        comment: 'refused at Cloudflare',
      });
    const refused = await add();
    expect(refused.statusCode, refused.body).toBe(400);
    const [alert] = await alertsOf(di, '?kind=ban-refused');
    expect(alert).toMatchObject({
      state: 'open',
      severity: 'warning',
      subject: { type: 'list', id: list.list_id, name: 'blocked' },
      title: expect.stringMatching(
        /^198\.51\.100\.9 was not added to blocked \(account Full Co\): Cloudflare refused it: .*maximum/,
      ),
    });
    // Room again at Cloudflare (the filler list deleted there): the same add goes through.
    const removed = await fetch(
      `${ctx.config.cloudflare.baseUrl}/accounts/${account.account_id}/rules/lists/${filler.id}`,
      {
        method: 'DELETE',
        headers: { authorization: `Bearer ${account.tokenValue}` },
      },
    );
    expect(removed.status).toBe(200);
    expect((await add()).statusCode).toBe(201);
    expect((await alertsOf(di, '?kind=ban-refused'))[0]).toMatchObject({ id: alert!.id, state: 'cleared' });
  });

  it("a token check raises 'not valid' (revoked, disabled) and the nearest expiry warning; valid and far from expiry again resolves them", async () => {
    const ed = await ctx.createUser();
    const causes = new AlertCauses(ctx.db, fail);
    const checks = new TokenChecks(
      new AccountsRepository(ctx.db),
      createAppDeps(ctx.config, ctx.db),
      fail,
      undefined,
      (account, state) =>
        causes.tokenChecked({
          id: account.id,
          userId: account.userId,
          accountName: account.accountName,
          status: state.status,
          expiresOn: state.expiresOn,
        }),
    );
    let round = 0;
    const sweepAll = async () => {
      round += 1;
      const at = new Date(Date.now() + round * (TOKEN_CHECK_EVERY_MS + 60_000));
      while ((await checks.sweep(at)) > 0);
    };
    const disabled = await ctx.addAccount(ed, { name: 'Token Co' });
    ctx.sandbox.control.setTokenStatus(disabled.tokenValue, 'disabled');
    await sweepAll();
    const [invalid] = await alertsOf(ed, '?kind=token-invalid');
    expect(invalid).toMatchObject({
      state: 'open',
      severity: 'critical',
      subject: { type: 'token', name: 'Token Co' },
      title: expect.stringContaining('Token Co is disabled at Cloudflare'),
    });
    ctx.sandbox.control.setTokenStatus(disabled.tokenValue, 'active');
    await sweepAll();
    expect((await alertsOf(ed, '?kind=token-invalid'))[0]).toMatchObject({
      id: invalid!.id,
      state: 'cleared',
    });

    // Expiring in 5 days: the 7-day warning; then its expiry pushed past 30 days: resolved by itself.
    const expiring = 'expiring-token-zzzz';
    const cfAccount = ctx.sandbox.control.addAccount({ name: 'Expiring Co', plan: 'pro' });
    ctx.sandbox.control.addToken({
      value: expiring,
      accountIds: [cfAccount.id],
      expiresOn: new Date(Date.now() + 5 * 86_400_000).toISOString(),
    });
    const added = await call(ed, 'POST', '/api/cloudflare/accounts', {
      account_name: 'Expiring Co',
      token: expiring,
    });
    expect(added.statusCode, added.body).toBe(201);
    await sweepAll();
    const [soon] = await alertsOf(ed, '?kind=token-expiring');
    expect(soon).toMatchObject({
      state: 'open',
      severity: 'warning',
      title: expect.stringContaining('expires within 7 days'),
    });

    ctx.sandbox.control.removeToken(expiring);
    await sweepAll();
    expect(await alertsOf(ed, '?kind=token-expiring&state=active')).toEqual([]);
    expect((await alertsOf(ed, '?kind=token-invalid&state=open'))[0]).toMatchObject({
      title: expect.stringContaining('Expiring Co is revoked'),
    });
  });

  it('an account past 85% of its lists quota raises an alert; below it again, it resolves by itself', async () => {
    const flo = await ctx.createUser();
    const quotaCo = await ctx.addAccount(flo, { name: 'Quota Co', plan: 'pro' });
    // Without zones Guardian assumes Free (one list); the person sets the account's plan.
    const planSet = await call(flo, 'PUT', `/api/cloudflare/capacity/${quotaCo.account_id}/plan`, {
      plan: 'pro',
    });
    expect(planSet.statusCode, planSet.body).toBe(200);
    const causes = new AlertCauses(ctx.db, fail, (after, limit) =>
      new ListCapacity(ctx.db).allAccounts(after, limit),
    );
    // Pro allows 10 lists: 9 is 90%.
    const setPlan = await call(flo, 'POST', '/api/cloudflare/banlists', {
      account_name: 'Quota Co',
      list_name: 'l0',
      kind: 'ip',
    });
    expect(setPlan.statusCode).toBe(201);
    const lists = [setPlan.json<BanList>()];
    for (let index = 1; index < 9; index++) lists.push(await newList(flo, 'Quota Co', `l${index}`));
    await causes.sweepCapacity();
    const [full] = await alertsOf(flo, '?kind=capacity');
    expect(full).toMatchObject({
      state: 'open',
      severity: 'warning',
      subject: { type: 'account', name: 'Quota Co' },
      title: 'Account Quota Co uses 9 of 10 lists (90%) of its Pro plan.',
    });
    // An unchanged use is not counted again at every sweep.
    await causes.sweepCapacity();
    expect((await alertsOf(flo, '?kind=capacity'))[0]!.count).toBe(1);
    const removed = await call(flo, 'DELETE', `/api/cloudflare/banlists/${lists[8]!.id}`);
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    await causes.sweepCapacity();
    expect((await alertsOf(flo, '?kind=capacity'))[0]).toMatchObject({ id: full!.id, state: 'cleared' });
  });

  it("security: a two-factor reset by an administrator and a sign-in from a new address raise the person's alerts", async () => {
    const admin = await ctx.createUser({ level: 0 });
    const gus = await ctx.createUser();
    const reset = await call(admin, 'DELETE', `/api/admin/users/${gus.id}/two-factor`);
    expect(reset.statusCode, reset.body).toBe(204);
    expect((await alertsOf(gus, '?kind=two-factor-reset'))[0]).toMatchObject({
      severity: 'critical',
      state: 'open',
    });
    expect(await alertsOf(admin, '?kind=two-factor-reset')).toEqual([]);

    const signIn = (remoteAddress: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: gus.email, password: gus.password },
        remoteAddress,
      });
    // The first address a person signs in from is not "new"; nor is it the second time.
    expect((await signIn('192.0.2.10')).statusCode).toBe(200);
    expect((await signIn('192.0.2.10')).statusCode).toBe(200);
    expect(await alertsOf(gus, '?kind=new-sign-in-address')).toEqual([]);
    expect((await signIn('203.0.113.77')).statusCode).toBe(200);
    expect((await signIn('203.0.113.77')).statusCode).toBe(200);
    const [signedIn] = await alertsOf(gus, '?kind=new-sign-in-address');
    expect(signedIn).toMatchObject({
      severity: 'warning',
      count: 1,
      title: expect.stringContaining('203.0.113.77'),
    });
  });
});
