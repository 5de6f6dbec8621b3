import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Cloudflare from 'cloudflare';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp, createAppDeps } from './app';
import { loadConfig } from './config';
import { createDb } from './db';
import { AppError } from './app-error';
import { routesBreakingOwnership } from './route-table';
import { createTestContext, type TestContext, type TestUser } from './test/context';

let ctx: TestContext;
let user: TestUser;
let webDistDir: string;
const logLines: string[] = [];

beforeAll(async () => {
  webDistDir = mkdtempSync(join(tmpdir(), 'guardian-web-'));
  writeFileSync(join(webDistDir, 'index.html'), '<!doctype html><title>Guardian</title>');
  mkdirSync(join(webDistDir, 'assets'));
  writeFileSync(join(webDistDir, 'assets', 'index-3f9a1c.js'), 'console.log("app")');
  writeFileSync(join(webDistDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

  ctx = await createTestContext({
    config: { serveWebApp: true, webDistDir },
    deps: { logger: pino({ level: 'error' }, { write: (line: string) => void logLines.push(line) }) },
    setup(app) {
      app.get('/api/test/crash', async () => {
        throw new Error('secret detail: connection string postgres://admin:hunter2@db');
      });
      app.post('/api/test/validate', async (request) =>
        z.object({ name: z.string().min(1, 'Name is required.') }).parse(request.body),
      );
      app.post('/api/test/echo', async (request) => ({ received: request.body ?? null }));
      app.get('/api/test/conflict', async () => {
        throw new AppError('CONFLICT', 'That name is taken.');
      });
      app.get('/api/test/cloudflare/:status', { config: { owns: ['status'] } }, async (request) => {
        const status = Number((request.params as { status: string }).status);
        if (status === 0) throw new Cloudflare.APIConnectionTimeoutError();
        throw Cloudflare.APIError.generate(
          status,
          { errors: [{ code: 1004, message: 'DNS Validation Error' }] },
          undefined,
          new Headers(),
        );
      });
    },
  });
  user = await ctx.createUser();
});
afterAll(async () => {
  await ctx?.close();
  rmSync(webDistDir, { recursive: true, force: true });
});

describe('security headers', () => {
  it('sends a strict CSP and the framing, sniffing and referrer headers on every answer', async () => {
    for (const url of ['/', '/api/health', '/api/nope']) {
      const { headers } = await ctx.app.inject({ method: 'GET', url });
      const csp = String(headers['content-security-policy']);
      for (const directive of [
        "default-src 'self'",
        "script-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "frame-ancestors 'none'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
      ]) {
        expect(csp).toContain(directive);
      }
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['x-frame-options']).toBe('DENY');
      expect(headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it('keeps API answers out of caches', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/me', headers: user.headers });
    expect(response.headers['cache-control']).toBe('no-store');
  });
});

describe('errors', () => {
  it('answers unknown /api routes with a JSON 404, signed in or not', async () => {
    for (const headers of [{}, user.headers]) {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/does-not-exist?x=1', headers });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        code: 'NOT_FOUND',
        message: 'Not found: GET /api/does-not-exist',
        errors: [{ code: 'NOT_FOUND', message: 'Not found: GET /api/does-not-exist' }],
      });
    }
  });

  it('hides the details of a 500 and logs them', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/test/crash', headers: user.headers });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      code: 'INTERNAL',
      message: 'Internal server error.',
      errors: [{ code: 'INTERNAL', message: 'Internal server error.' }],
    });
    expect(response.body).not.toContain('hunter2');
    const logged = logLines
      .map((line) => JSON.parse(line))
      .find((entry) => entry.err?.message?.includes('secret detail'));
    expect(logged).toMatchObject({
      reqId: expect.any(String),
      err: { stack: expect.stringContaining('app.test.ts') },
    });
  });

  it('answers an AppError with its status and the contract body', async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/test/conflict',
      headers: user.headers,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      code: 'CONFLICT',
      message: 'That name is taken.',
      errors: [{ code: 'CONFLICT', message: 'That name is taken.' }],
    });
  });

  it('answers a zod failure with 400 naming the field', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/test/validate',
      headers: user.headers,
      payload: { name: '' },
    });
    expect(response.statusCode).toBe(400);
    // The message is for people; the field's key is beside it, for forms.
    expect(response.json()).toEqual({
      code: 'BAD_REQUEST',
      message: 'Name is required.',
      errors: [{ code: 'BAD_REQUEST', message: 'Name is required.', field: 'name' }],
    });
  });

  it.each([
    [
      'bad JSON',
      { 'content-type': 'application/json' },
      '{"name":',
      400,
      'The request body is not valid JSON.',
    ],
    [
      'an unsupported content type',
      { 'content-type': 'text/csv' },
      'a,b',
      415,
      'Unsupported content type: send the body as application/json.',
    ],
    [
      'a body over 1 MB',
      { 'content-type': 'application/json' },
      JSON.stringify({ name: 'x'.repeat(1_100_000) }),
      413,
      'The request body is too large.',
    ],
  ])('answers %s with a 4xx JSON message', async (_case, headers, payload, status, message) => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/test/validate',
      headers: { ...user.headers, ...headers },
      payload,
    });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ message });
  });

  it.each([
    ['in the path', 'GET', '/api/test/cloudflare/4%000', undefined],
    ['in the query', 'GET', '/api/test/conflict?search=a%00b', undefined],
    ['in the body', 'POST', '/api/test/echo', { note: ['fine', { deep: 'a\u0000b' }] }],
  ])('refuses a NUL character %s with 400, before the handler', async (_where, method, url, payload) => {
    const response = await ctx.app.inject({
      method: method as 'GET' | 'POST',
      url,
      headers: user.headers,
      ...(payload ? { payload } : {}),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(
      'The request contains a NUL character (\\u0000), which is not allowed.',
    );
  });

  it('answers a URL with a broken escape with the contract body, short and without echoing it', async () => {
    const path = `/api/cloudflare/zones/%ZZ${'a'.repeat(5_000)}`;
    const response = await ctx.app.inject({ method: 'GET', url: path, headers: user.headers });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'BAD_REQUEST',
      message: 'The request URL is not valid: it has a broken %-escape.',
      errors: [{ code: 'BAD_REQUEST', message: 'The request URL is not valid: it has a broken %-escape.' }],
    });
    expect(response.body.length).toBeLessThan(300);
  });

  it('treats an empty JSON body as no body', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: '',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: null });
  });

  it.each([
    [400, 400, 'DNS Validation Error'],
    [403, 403, "Cloudflare rejected the account's API token: DNS Validation Error"],
    [429, 429, undefined],
    [503, 502, 'Cloudflare is unavailable right now. Please try again.'],
    [0, 502, 'Cloudflare is unavailable right now. Please try again.'],
  ])('maps a Cloudflare SDK error %i to %i', async (cloudflareStatus, status, message) => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/test/cloudflare/${cloudflareStatus}`,
      headers: user.headers,
    });
    expect(response.statusCode).toBe(status);
    if (message) expect(response.json().message).toBe(message);
  });

  it('answers 503 while the database is unreachable, and the health check says so', async () => {
    const config = {
      ...loadConfig({ GUARDIAN_MODE: 'test' }),
      databaseUrl: 'postgres://postgres@127.0.0.1:1/none',
    };
    const db = await createDb(config);
    const app = await buildApp(config, createAppDeps(config, db));
    try {
      const unavailable = {
        code: 'UNAVAILABLE',
        message: 'The database is unavailable. Please try again shortly.',
        errors: [{ code: 'UNAVAILABLE', message: 'The database is unavailable. Please try again shortly.' }],
      };
      const health = await app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(503);
      expect(health.json()).toEqual(unavailable);
      const login = await app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: 'a@b.co', password: 'x' },
      });
      expect(login.statusCode).toBe(503);
      expect(login.json()).toEqual(unavailable);
    } finally {
      await app.close();
      await db.close();
    }
  });
});

describe('GET /api/health', () => {
  it('is public and reports the database', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'ok' });
  });
});

describe('the web app', () => {
  it('serves index.html for / and for deep links, never cached', async () => {
    for (const url of [
      '/',
      '/cloudflare/zones/abc123/rules',
      '/cloudflare/banlists/9f8e/items?page=2',
      '/login',
    ]) {
      const response = await ctx.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<title>Guardian</title>');
    }
  });

  it('serves hashed assets with a long cache and other files revalidated', async () => {
    const asset = await ctx.app.inject({ method: 'GET', url: '/assets/index-3f9a1c.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const favicon = await ctx.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(favicon.headers['cache-control']).toBe('no-cache');
  });

  it('answers 404 for a missing file and for other methods', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/assets/missing-123.js' })).statusCode).toBe(404);
    const post = await ctx.app.inject({ method: 'POST', url: '/cloudflare/zones' });
    expect(post.statusCode).toBe(404);
    expect(post.json().code).toBe('NOT_FOUND');
  });
});

describe('route conventions', () => {
  it('every /api route with path params declares exactly which ones it checks ownership of', () => {
    expect(routesBreakingOwnership(ctx.app.routeTable)).toEqual([]);
  });

  it('catches a route that forgets', () => {
    const routes = [
      {
        method: 'DELETE',
        url: '/api/cloudflare/zones/:zone_id/dns/:id',
        access: undefined,
        owns: ['zone_id'],
      },
      { method: 'GET', url: '/api/cloudflare/zones/:zone_id', access: undefined, owns: undefined },
      { method: 'GET', url: '/api/cloudflare/zones/:zone_id/dns', access: undefined, owns: ['zone_id'] },
    ];
    expect(routesBreakingOwnership(routes).map((route) => route.url)).toEqual([
      '/api/cloudflare/zones/:zone_id/dns/:id',
      '/api/cloudflare/zones/:zone_id',
    ]);
  });
});
