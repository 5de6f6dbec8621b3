import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  accountEndpoints,
  ADMIN_LEVEL,
  apiKeyEndpoints,
  notificationChannelEndpoints,
  planEndpoints,
  systemSettingEndpoints,
  ticketEndpoints,
  userEndpoints,
} from '@guardian/contract';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startSmtpInbox } from '../test/smtp-inbox';
import { startWebhookReceiver } from '../test/webhook-receiver';
import { requestTo } from '../test/request';
import { createCloudflareTestContext, type CloudflareTestContext } from '../test/cloudflare-context';
import type { TestUser } from '../test/context';
import type { RouteEntry } from '../route-table';
import {
  apiRoutes,
  ownerOrder,
  routeName,
  sampleCall,
  sampleRequest,
  seedEstate,
  sendSample,
  urlsFor,
  type Estate,
  ROUTE_WALK_TIMEOUT_MS,
} from '../test/security';

/**
 * The security headers on every answer of every /api route (success, 401, 403, 404, 400) and of the
 * web app, and the administrators' routes: only level 0 reaches them. app.test.ts checks the CSP's
 * directives on three URLs; this file walks the route table, and e2e/security.spec.ts proves the
 * built web app runs under the CSP in Chromium without a violation.
 */

let ctx: CloudflareTestContext;
let estate: Estate;
let webDistDir: string;

beforeAll(async () => {
  webDistDir = mkdtempSync(join(tmpdir(), 'guardian-web-'));
  writeFileSync(join(webDistDir, 'index.html'), '<!doctype html><title>Guardian</title>');
  ctx = await createCloudflareTestContext({ config: { serveWebApp: true, webDistDir } });
  estate = await seedEstate(ctx, await ctx.createUser(), 'headers');
});
afterAll(async () => {
  await ctx?.close();
  rmSync(webDistDir, { recursive: true, force: true });
});

function expectSecurityHeaders(headers: Record<string, unknown>, what: string, api = true, status = 200) {
  const csp = String(headers['content-security-policy']);
  expect(csp, what).toContain("default-src 'self'");
  expect(csp, what).toContain("script-src 'self'");
  expect(csp, what).toContain("object-src 'none'");
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toContain("base-uri 'self'");
  expect(csp, what).not.toMatch(/script-src[^;]*('unsafe-inline'|'unsafe-eval'|\*|data:|https?:)/);
  expect(csp, what).not.toMatch(/default-src[^;]*\*/);
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['x-frame-options'], what).toBe('DENY');
  expect(headers['referrer-policy'], what).toBe('no-referrer');
  expect(String(headers['strict-transport-security']), what).toMatch(/max-age=\d{7,}/);
  expect(headers['x-powered-by'], what).toBeUndefined();
  // No CORS: another site's scripts cannot read the API with a stolen-by-the-browser credential.
  expect(headers['access-control-allow-origin'], what).toBeUndefined();
  expect(headers['access-control-allow-credentials'], what).toBeUndefined();
  if (api) {
    expect(headers['cache-control'], what).toBe('no-store');
    if (status !== 204 && headers['content-length'] !== '0')
      // The activity exports answer CSV; every other answer, and their errors, JSON.
      expect(String(headers['content-type']), what).toMatch(
        status === 200 && /\/export\b/.test(what) ? /^text\/csv/ : /^application\/json/,
      );
  }
}

describe('security headers on every answer', () => {
  it(
    'every /api route, signed in or not, successful or refused',
    async () => {
      let checked = 0;
      for (const route of ownerOrder(apiRoutes(ctx.app))) {
        const { url, sample } = await sampleCall(ctx, route, estate);
        for (const headers of [
          {},
          estate.user.headers,
          { ...estate.user.headers, origin: 'https://evil.example' },
        ]) {
          const response = await sendSample(ctx, route, url, headers, sample);
          expectSecurityHeaders(
            response.headers,
            `${routeName(route)} → ${response.statusCode}`,
            true,
            response.statusCode,
          );
          checked += 1;
        }
      }
      expect(checked).toBeGreaterThan(20);
    },
    ROUTE_WALK_TIMEOUT_MS,
  );

  it('error answers of every kind: 400, 404, 405-ish, 413, 415, bad JSON', async () => {
    const { method: add, path: accounts } = accountEndpoints.add;
    const cases = [
      { method: 'GET', url: '/api/nope' },
      { method: 'PATCH', url: accounts },
      { method: add, url: accounts, payload: '{"x":', contentType: 'application/json' },
      { method: add, url: accounts, payload: 'a=b', contentType: 'text/csv' },
      {
        method: add,
        url: accounts,
        payload: JSON.stringify({ a: 'x'.repeat(1_100_000) }),
        contentType: 'application/json',
      },
      {
        method: add,
        url: accounts,
        payload: JSON.stringify({ account_name: 1 }),
        contentType: 'application/json',
      },
    ];
    for (const { method, url, payload, contentType } of cases) {
      const response = await ctx.app.inject({
        method: method as 'GET',
        url,
        headers: { ...estate.user.headers, ...(contentType ? { 'content-type': contentType } : {}) },
        payload,
      });
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expectSecurityHeaders(response.headers, `${method} ${url} → ${response.statusCode}`);
    }
  });

  it('the web app and its deep links', async () => {
    for (const url of ['/', '/login', '/cloudflare/zones/abc/rules', '/dashboard']) {
      const response = await ctx.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expectSecurityHeaders(response.headers, url, false);
    }
  });

  it('serves no file from outside the web app folder', async () => {
    for (const url of [
      '/../../../../etc/passwd',
      '/assets/..%2f..%2f..%2f..%2fetc%2fpasswd',
      '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      '/assets/%2e%2e%2f%2e%2e%2fpackage.json',
      '/..%5c..%5cpackage.json',
    ]) {
      const response = await ctx.app.inject({ method: 'GET', url });
      expect(response.body, url).not.toMatch(/root:|"name":/);
      expect(response.statusCode, url).toBeLessThan(500);
    }
  });

  it('answers a CORS preflight without allowing anything', async () => {
    const response = await ctx.app.inject({
      method: 'OPTIONS',
      url: accountEndpoints.add.path,
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.headers['access-control-allow-headers']).toBeUndefined();
  });
});

describe('administrator routes', () => {
  it('are exactly the routes under /api/admin, and each declares admin access', () => {
    const routes = apiRoutes(ctx.app);
    const admin = routes.filter((route) => route.access === 'admin');
    expect(admin.length).toBeGreaterThan(0);
    expect(routes.filter((route) => route.url.startsWith('/api/admin/') && route.access !== 'admin')).toEqual(
      [],
    );
    expect(admin.filter((route) => !route.url.startsWith('/api/admin/'))).toEqual([]);
  });

  it(
    'answer 403 to every level but 0, even a level that was 0 when the token was issued',
    async () => {
      const regulars: TestUser[] = [
        await ctx.createUser({ level: 1 }),
        await ctx.createUser({ level: 2 }),
        await ctx.createUser({ level: 99 }),
      ];
      const demoted = await ctx.createUser({ level: 0 });
      await ctx.db.query('UPDATE users SET level = 5 WHERE id = $1', [demoted.id]);
      const admin = await ctx.createUser({ level: ADMIN_LEVEL });
      // The person the administrator's routes act on (levels, disabling, deleting): not the estate's.
      const targetUser = await ctx.createUser({ level: 1 });
      const targetKey = await ctx.app.inject({
        ...requestTo(apiKeyEndpoints.create, { payload: { name: 'target', access: 'read' } }),
        headers: targetUser.headers,
      });
      // The person's own open ticket: the estate's was closed by the walk above.
      const targetTicket = await ctx.app.inject({
        ...requestTo(ticketEndpoints.open, {
          payload: { subject: 'Target question', category: 'question', message: 'Help?' },
        }),
        headers: targetUser.headers,
      });
      const target = {
        ...estate,
        user: targetUser,
        apiKey: { id: targetKey.json<{ id: number }>().id },
        ticket: { id: targetTicket.json<{ id: number }>().id },
      };
      // Send a test e-mail succeeds only through a mail server: a real one on a loopback port.
      const inbox = await startSmtpInbox();
      onTestFinished(() => inbox.close());
      const smtp = await ctx.app.inject({
        ...requestTo(systemSettingEndpoints.update, {
          payload: {
            smtp_host: '127.0.0.1',
            smtp_port: inbox.port,
            smtp_tls: 'none',
            smtp_sender: 'guardian@example.com',
          },
        }),
        headers: admin.headers,
      });
      expect(smtp.statusCode, smtp.body).toBe(200);
      // Send a test to a channel succeeds only when a receiver answers: a real one on a loopback port.
      const receiver = await startWebhookReceiver();
      onTestFinished(() => receiver.close());
      const pointed = await ctx.app.inject({
        ...requestTo(notificationChannelEndpoints.update, {
          params: { id: estate.channel.id! },
          payload: { webhook_url: receiver.url },
        }),
        headers: admin.headers,
      });
      expect(pointed.statusCode, pointed.body).toBe(200);
      // Revoking the person's key first (a level change or disabling revokes it too), deleting the
      // person and the channel last: every other route still finds them.
      const order = (route: RouteEntry) =>
        route.url === apiKeyEndpoints.userRevoke.path
          ? -1
          : route.url === userEndpoints.remove.path ||
              (route.method === 'DELETE' && route.url === notificationChannelEndpoints.remove.path)
            ? 1
            : 0;
      const adminRoutes = apiRoutes(ctx.app)
        .filter((entry) => entry.access === 'admin')
        .sort((a, b) => order(a) - order(b));
      // Making a plan the default keeps it from being deleted: that route makes another plan the default.
      const [nextDefault] = await ctx.db.query<{ id: number }>(
        `INSERT INTO plans (name, accounts, zones, lists, list_items, api_keys, servers, templates, report_range)
       VALUES ('Next default', 100, 100, 100, 100000, 20, 100, 0, '30d') RETURNING id`,
      );
      // A server needs lists of its person's: the routes on one person's servers act on the estate's.
      const targetOf = (route: RouteEntry) =>
        route.url.includes('/servers/')
          ? { ...target, user: estate.user }
          : route.url === planEndpoints.makeDefault.path
            ? { ...target, plan: { id: nextDefault!.id } }
            : target;
      for (const route of adminRoutes) {
        const [url] = urlsFor(route, targetOf(route));
        for (const user of [...regulars, demoted]) {
          const response = await ctx.app.inject({
            method: route.method as 'GET',
            url: url!,
            headers: user.headers,
          });
          expect(response.statusCode, `${route.method} ${route.url} as level ${user.level}`).toBe(403);
          expect(response.json()).toMatchObject({
            code: 'FORBIDDEN',
            message: 'Only administrators can do this.',
          });
        }
        const allowed = await ctx.app.inject({
          method: route.method as 'GET',
          url: url!,
          headers: admin.headers,
          payload: (await sampleRequest(ctx, route, targetOf(route))).payload as object,
        });
        expect(allowed.statusCode, `${route.method} ${route.url} as an administrator`).toBeLessThan(300);
      }
    },
    ROUTE_WALK_TIMEOUT_MS,
  );

  it('a promotion in the database applies at once, without a new token', async () => {
    const promoted = await ctx.createUser({ level: 1 });
    await ctx.db.query('UPDATE users SET level = 0 WHERE id = $1', [promoted.id]);
    const response = await ctx.app.inject({ ...requestTo(userEndpoints.list), headers: promoted.headers });
    expect(response.statusCode).toBe(200);
  });
});
