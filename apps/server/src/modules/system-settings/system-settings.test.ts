import type { SystemSettings, TestEmailResult } from '@guardian/contract';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, createAppDeps } from '../../app';
import { AlertCauses } from '../alerts';
import { createTestContext, type TestContext, type TestUser } from '../../test/context';
import { freePort } from '../../test/free-port';
import { startSmtpInbox, type SmtpInbox } from '../../test/smtp-inbox';

const SETTINGS = '/api/admin/settings';
const TEST_EMAIL = '/api/admin/settings/test-email';

describe('System Setting', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let inbox: SmtpInbox;
  let addressCounter = 0;
  const nextAddress = () => `198.51.100.${++addressCounter}`;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await ctx.createUser({ level: 0 });
    inbox = await startSmtpInbox({ user: 'guardian', password: 'smtp secret 42' });
  });
  afterAll(async () => {
    await inbox?.close();
    await ctx?.close();
  });

  const call = (
    app: FastifyInstance,
    who: TestUser,
    method: 'GET' | 'PUT' | 'POST',
    url: string,
    payload?: object,
  ) => app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
  const put = (payload: object, app = ctx.app) => call(app, admin, 'PUT', SETTINGS, payload);

  it('is for administrators only: a person gets 403 on every route', async () => {
    const ada = await ctx.createUser();
    expect((await call(ctx.app, ada, 'GET', SETTINGS)).statusCode).toBe(403);
    expect((await call(ctx.app, ada, 'PUT', SETTINGS, { smtp_port: 25 })).statusCode).toBe(403);
    expect((await call(ctx.app, ada, 'POST', TEST_EMAIL, {})).statusCode).toBe(403);
  });

  it('refuses a value out of its range with a 400 naming the range, and changes nothing', async () => {
    const before = (await call(ctx.app, admin, 'GET', SETTINGS)).json<SystemSettings>();
    const refused = await put({ session_lifetime_minutes: 2, audit_retention_days: 30 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain(
      'Session lifetime must be a whole number from 5 to 43200 minutes.',
    );
    const port = await put({ smtp_port: 70_000 });
    expect(port.statusCode).toBe(400);
    expect(port.json().message).toContain('from 1 to 65535');
    expect((await put({ smtp_sender: 'not an address' })).statusCode).toBe(400);
    expect((await put({ no_such_setting: 1 })).statusCode).toBe(400);
    expect((await call(ctx.app, admin, 'GET', SETTINGS)).json<SystemSettings>()).toEqual(before);
  });

  it('keeps the SMTP password encrypted, never sends it back, and audits the change without it', async () => {
    const saved = await put({ smtp_user: 'guardian', smtp_password: 'smtp secret 42' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.body).not.toContain('smtp secret 42');
    expect(saved.json<SystemSettings>().values).toMatchObject({
      smtp_user: 'guardian',
      smtp_password_set: true,
    });
    const [row] = await ctx.db.query<{ value: string }>(
      "SELECT value FROM settings WHERE key = 'smtp_password'",
    );
    expect(row!.value).toMatch(/^v1:/);
    expect(row!.value).not.toContain('smtp secret');
    const [event] = await ctx.db.query<{ action: string; target: unknown; outcome: string }>(
      `SELECT action, target, outcome FROM audit_events WHERE user_id = $1 ORDER BY id DESC LIMIT 1`,
      [admin.id],
    );
    expect(event).toMatchObject({ action: 'systemSettings.update', outcome: 'success' });
    expect(JSON.stringify(event!.target)).toContain('guardian');
    expect(JSON.stringify(event!.target)).not.toContain('smtp secret 42');
  });

  it('sends a test e-mail through the SMTP server set, with its user and password, and it arrives', async () => {
    const saved = await put({
      smtp_host: '127.0.0.1',
      smtp_port: inbox.port,
      smtp_tls: 'none',
      smtp_user: 'guardian',
      smtp_password: 'smtp secret 42',
      smtp_sender: 'Guardian <guardian@example.com>',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const sent = await call(ctx.app, admin, 'POST', TEST_EMAIL, { to: 'ops@example.com' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json<TestEmailResult>()).toMatchObject({ sent_to: 'ops@example.com' });
    const [mail] = await inbox.waitFor(1);
    expect(mail).toMatchObject({
      from: 'guardian@example.com',
      to: ['ops@example.com'],
      subject: 'Guardian test e-mail',
    });
    expect(mail!.raw).toContain(`sent by ${admin.email}`);
    // Without a recipient, it goes to the administrator's own address.
    expect((await call(ctx.app, admin, 'POST', TEST_EMAIL, {})).json<TestEmailResult>().sent_to).toBe(
      admin.email,
    );
    expect((await inbox.waitFor(2))[1]!.to).toEqual([admin.email]);
  });

  it('says what went wrong: a wrong password, an unreachable host, no host set', async () => {
    await put({ smtp_host: '127.0.0.1', smtp_port: inbox.port, smtp_tls: 'none', smtp_password: 'wrong' });
    const refused = await call(ctx.app, admin, 'POST', TEST_EMAIL, {});
    expect(refused.statusCode).toBe(502);
    expect(refused.json().message).toContain('refused the user name and password');

    await put({ smtp_port: await freePort(), smtp_password: 'smtp secret 42' });
    const unreachable = await call(ctx.app, admin, 'POST', TEST_EMAIL, {});
    expect(unreachable.statusCode).toBe(502);
    expect(unreachable.json().message).toMatch(
      /The e-mail was not sent: the SMTP server 127\.0\.0\.1:\d+ could not be reached/,
    );

    await put({ smtp_host: '' });
    const unset = await call(ctx.app, admin, 'POST', TEST_EMAIL, {});
    expect(unset.statusCode).toBe(400);
    expect(unset.json().message).toContain('set the SMTP host and the sender');
  });

  it('applies a change in a second server process on the same database without a restart', async () => {
    const config = { ...ctx.config, settingsRefreshMs: 100 };
    const other = await buildApp(config, createAppDeps(config, ctx.db));
    await other.ready();
    try {
      const person = await ctx.createUser();
      const signIn = async () => {
        const answer = await other.inject({
          method: 'POST',
          url: '/api/login',
          payload: { email: person.email, password: person.password },
          remoteAddress: nextAddress(),
        });
        expect(answer.statusCode, answer.body).toBe(200);
        const { iat, exp } = decodeJwt(answer.json<{ token: string }>().token);
        return exp! - iat!;
      };
      expect(await signIn()).toBe(ctx.config.tokenTtlSeconds);
      // Changed through the first process; the second sees the version move within its refresh.
      expect((await put({ session_lifetime_minutes: 45, expiry_sweep_seconds: 30 })).statusCode).toBe(200);
      await expect.poll(signIn, { timeout: 10_000, interval: 150 }).toBe(45 * 60);
      const seen = await other.inject({ method: 'GET', url: SETTINGS, headers: admin.headers });
      expect(seen.json<SystemSettings>().values).toMatchObject({
        session_lifetime_minutes: 45,
        expiry_sweep_seconds: 30,
      });
    } finally {
      await other.close();
      await put({ session_lifetime_minutes: ctx.config.tokenTtlSeconds / 60 });
    }
  });

  it('applies the sign-in slow-down as set: past the allowance of failures a sign-in waits', async () => {
    expect((await put({ sign_in_failures_per_email: 1 })).statusCode).toBe(200);
    const person = await ctx.createUser();
    const address = nextAddress();
    const attempt = (password: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: person.email, password },
        remoteAddress: address,
      });
    expect((await attempt('wrong password 1')).statusCode).toBe(401);
    expect((await attempt('wrong password 2')).statusCode).toBe(429);
    await put({ sign_in_failures_per_email: 5 });
  });
});

describe('Resolved alerts past their retention', () => {
  let ctx: TestContext;
  beforeAll(async () => (ctx = await createTestContext()));
  afterAll(() => ctx?.close());

  it('are deleted by the sweep; live ones and recently resolved ones stay', async () => {
    const person = await ctx.createUser();
    const insert = (state: string, resolvedDaysAgo: number | null, key: string) =>
      ctx.db.query(
        `INSERT INTO alerts (user_id, kind, severity, state, dedupe_key, title, resolved_at)
         VALUES ($1, 'job-failed', 'warning', $2, $3, 'A job failed', now() - $4 * interval '1 day')`,
        [person.id, state, key, resolvedDaysAgo],
      );
    await insert('resolved', 10, 'old-resolved');
    await insert('cleared', 10, 'old-cleared');
    await insert('resolved', 1, 'recent');
    await insert('open', null, 'live');
    const causes = new AlertCauses(
      ctx.db,
      (err) => {
        throw err;
      },
      undefined,
      undefined,
      () => 7 * 86_400_000,
    );
    expect(await causes.sweepResolved()).toBe(2);
    const left = await ctx.db.query<{ dedupe_key: string }>(
      'SELECT dedupe_key FROM alerts WHERE user_id = $1 ORDER BY dedupe_key',
      [person.id],
    );
    expect(left.map((row) => row.dedupe_key)).toEqual(['live', 'recent']);
  });
});

describe('System Setting with environment variables set', () => {
  let ctx: TestContext;
  let admin: TestUser;

  beforeAll(async () => {
    ctx = await createTestContext({
      config: {
        tokenTtlSeconds: 1_800,
        settingsFromEnvironment: { session_lifetime_minutes: 'GUARDIAN_TOKEN_TTL_SECONDS' },
      },
    });
    admin = await ctx.createUser({ level: 0 });
  });
  afterAll(() => ctx?.close());

  it('shows the environment value, says which variable sets it, and refuses to change it', async () => {
    const read = await ctx.app.inject({ method: 'GET', url: SETTINGS, headers: admin.headers });
    expect(read.json<SystemSettings>()).toMatchObject({
      values: { session_lifetime_minutes: 30 },
      from_environment: { session_lifetime_minutes: 'GUARDIAN_TOKEN_TTL_SECONDS' },
    });
    const refused = await ctx.app.inject({
      method: 'PUT',
      url: SETTINGS,
      headers: admin.headers,
      payload: { session_lifetime_minutes: 60 },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('set by the environment variable GUARDIAN_TOKEN_TTL_SECONDS');
    // A stored value (written before the variable was set) does not win over it either.
    await ctx.db.query(`INSERT INTO settings (key, value) VALUES ('session_lifetime_minutes', '90'::jsonb)`);
    const again = await ctx.app.inject({
      method: 'PUT',
      url: SETTINGS,
      headers: admin.headers,
      payload: { audit_retention_days: 400 },
    });
    expect(again.json<SystemSettings>().values).toMatchObject({
      session_lifetime_minutes: 30,
      audit_retention_days: 400,
    });
  });
});
