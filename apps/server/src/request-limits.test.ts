import { connect, type AddressInfo } from 'node:net';
import type { ErrorBody } from '@guardian/contract';
import Fastify, { type RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCloudflareTestContext, type CloudflareTestContext } from './test/cloudflare-context';
import { createTestContext, type TestContext, type TestUser } from './test/context';
import { loadConfig } from './config';
import { CostlyRequestQueue, registerRequestLimits } from './request-limits';

describe('requests a minute', () => {
  let ctx: TestContext;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    ctx = await createTestContext({
      config: { requestLimits: { perMinute: 5, concurrentCostly: 2, queuedCostly: 8 } },
    });
    alice = await ctx.createUser();
    bob = await ctx.createUser();
  });
  afterAll(() => ctx.close());

  const me = (user: TestUser, remoteAddress = '127.0.0.1') =>
    ctx.app.inject({ method: 'GET', url: '/api/me', headers: user.headers, remoteAddress });

  it('answers a person past the limit 429 RATE_LIMITED with Retry-After; another person is not affected', async () => {
    for (let i = 0; i < 5; i++) expect((await me(alice)).statusCode).toBe(200);
    // From another address too: the limit follows the person, not the connection.
    const refused = await me(alice, '198.51.100.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.json<ErrorBody>()).toEqual({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/^Too many requests: at most 5 a minute\. Please try again in \d+ s\.$/),
      errors: [{ code: 'RATE_LIMITED', message: refused.json<ErrorBody>().message }],
    });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    expect((await me(bob)).statusCode).toBe(200);
  });

  it('counts requests before signing in per address', async () => {
    const health = (remoteAddress: string) =>
      ctx.app.inject({ method: 'GET', url: '/api/health', remoteAddress });
    for (let i = 0; i < 5; i++) expect((await health('203.0.113.1')).statusCode).toBe(200);
    const refused = await health('203.0.113.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json<ErrorBody>().code).toBe('RATE_LIMITED');
    expect((await health('203.0.113.2')).statusCode).toBe(200);
  });
});

describe('requests a minute, on sign-in', () => {
  let ctx: TestContext;
  let alice: TestUser;
  beforeAll(async () => {
    ctx = await createTestContext({
      config: { requestLimits: { perMinute: 5, concurrentCostly: 2, queuedCostly: 8 } },
    });
    alice = await ctx.createUser();
  });
  afterAll(() => ctx.close());

  const login = (email: string, password: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email, password },
      remoteAddress: '203.0.113.9',
    });

  it("keeps the sign-in limiter's promise (issue 33): a flood from an address does not lock out a person already seen from it", async () => {
    expect((await login(alice.email, alice.password)).statusCode).toBe(200);
    // Past the address's 5 requests a minute and its sign-in allowance: refused.
    const flood = await Promise.all(
      Array.from({ length: 40 }, (_, i) => login(`nobody${i}@example.com`, 'guess')),
    );
    expect(new Set(flood.map((answer) => answer.statusCode))).toEqual(new Set([401, 429]));
    expect((await login(alice.email, alice.password)).statusCode).toBe(200);
    // Her own sign-ins still count a minute's requests: the limit follows the e-mail at the address.
    for (let i = 0; i < 3; i++) expect((await login(alice.email, alice.password)).statusCode).toBe(200);
    const refused = await login(alice.email, alice.password);
    expect(refused.statusCode).toBe(429);
    expect(refused.json<ErrorBody>().message).toMatch(/^Too many requests: at most 5 a minute\./);
  });
});

describe('the requests-a-minute headers', () => {
  let ctx: TestContext;
  let alice: TestUser;
  beforeAll(async () => {
    ctx = await createTestContext({
      config: { requestLimits: { perMinute: 3, concurrentCostly: 2, queuedCostly: 8 } },
    });
    alice = await ctx.createUser();
  });
  afterAll(() => ctx.close());

  const limitHeaders = (headers: Record<string, unknown>) => ({
    limit: headers['x-ratelimit-limit'],
    remaining: headers['x-ratelimit-remaining'],
    reset: headers['x-ratelimit-reset'],
    retryAfter: headers['retry-after'],
  });

  it("count each request once (a GET's HEAD too), as @fastify/rate-limit's headers did; none on the web app's files", async () => {
    const me = (method: 'GET' | 'HEAD') => ctx.app.inject({ method, url: '/api/me', headers: alice.headers });
    expect(limitHeaders((await me('GET')).headers)).toEqual({
      limit: '3',
      remaining: '2',
      reset: '60',
      retryAfter: undefined,
    });
    const head = await me('HEAD');
    expect(head.statusCode).toBe(200);
    expect(limitHeaders(head.headers)).toMatchObject({ limit: '3', remaining: '1' });
    expect(limitHeaders((await me('GET')).headers)).toMatchObject({ limit: '3', remaining: '0' });
    const refused = await me('GET');
    expect(refused.statusCode).toBe(429);
    const { reset, ...rest } = limitHeaders(refused.headers);
    expect(rest).toEqual({ limit: '3', remaining: '0', retryAfter: reset });
    expect(Number(reset)).toBeGreaterThanOrEqual(1);
    // Not an /api path: not counted, no headers (a 404 here, with no web app built).
    const page = await ctx.app.inject({ method: 'GET', url: '/zones', headers: alice.headers });
    expect(page.headers['x-ratelimit-limit']).toBeUndefined();
  });
});

describe('the costly line', () => {
  it('gives a free place at once, without a promise to wait for; a full place is waited for', async () => {
    const queue = new CostlyRequestQueue({ concurrentCostly: 1, queuedCostly: 1 });
    const first = queue.enter('user:1');
    expect(typeof first).toBe('function');
    const second = queue.enter('user:1');
    expect(second).toBeInstanceOf(Promise);
    expect(() => queue.enter('user:1')).toThrow(/Too many requests at once/);
    (first as () => void)();
    const leave = await second;
    leave();
    expect(typeof queue.enter('user:1')).toBe('function');
  });
});

describe("a costly route's handler", () => {
  it('leaves its place at once for an answer given without a promise, after an awaited one settles', async () => {
    const app = Fastify();
    await registerRequestLimits(
      app,
      { perMinute: 1_000, concurrentCostly: 1, queuedCostly: 1 },
      { perPersonBytes: 1_000, totalBytes: 1_000 },
    );
    const routes = new Map<string, RouteOptions>();
    app.addHook('onRoute', (route) => void routes.set(route.url, route));
    let finish: (answer: string) => void = () => {};
    app.get('/api/kept', { config: { costly: true } }, () => 'kept');
    app.get(
      '/api/slow',
      { config: { costly: true } },
      () => new Promise<string>((resolve) => (finish = resolve)),
    );
    app.get('/api/broken', { config: { costly: true } }, () => {
      throw new Error('broken');
    });
    await app.ready();
    const call = (url: string) =>
      (routes.get(url)!.handler as (...args: unknown[]) => unknown).call(app, { user: { id: 1 } }, {});

    // One place: the second answer is given at once only if the first one left it.
    expect(call('/api/kept')).toBe('kept');
    expect(call('/api/kept')).toBe('kept');
    expect(() => call('/api/broken')).toThrow('broken');
    const slow = call('/api/slow');
    const waiting = call('/api/kept');
    expect(waiting).toBeInstanceOf(Promise);
    finish('slow');
    expect(await slow).toBe('slow');
    expect(await waiting).toBe('kept');
    expect(call('/api/kept')).toBe('kept');
    await app.close();
  });
});

describe('costly requests at once', () => {
  let ctx: CloudflareTestContext;
  let alice: TestUser;
  let bob: TestUser;
  const lists = new Map<TestUser, string>();
  const accounts = new Map<TestUser, string>();

  beforeAll(async () => {
    ctx = await createCloudflareTestContext({
      config: { requestLimits: { perMinute: 1_000, concurrentCostly: 1, queuedCostly: 2 } },
    });
    alice = await ctx.createUser();
    bob = await ctx.createUser();
    for (const user of [alice, bob]) {
      const account = await ctx.addAccount(user);
      const list = ctx.sandbox.control.addList(account.account_id, { name: `list_${user.id}`, kind: 'ip' });
      ctx.sandbox.control.seedListItems(
        account.account_id,
        list.id,
        Array.from({ length: 2_000 }, (_, i) => ({ ip: `10.1.${i >> 8}.${i & 255}`, comment: `case ${i}` })),
      );
      const call = (url: string) =>
        ctx.app.inject({ method: 'POST', url: `/api/cloudflare/banlists${url}`, headers: user.headers });
      expect((await call('/update')).statusCode).toBe(200);
      expect((await call(`/${list.id}/sync`)).statusCode).toBe(200);
      lists.set(user, list.id);
      accounts.set(user, account.account_id);
    }
  });
  afterAll(() => ctx.close());

  const search = (user: TestUser, text: string) =>
    ctx.app.inject({
      method: 'GET',
      url: `/api/cloudflare/banlists/${lists.get(user)}/items?search=${encodeURIComponent(text)}&sort=comment`,
      headers: user.headers,
    });

  it("keeps one person's syncs in their own line: past it a 429, and another person's search goes first", async () => {
    expect((await search(alice, 'case 9')).statusCode).toBe(200);
    // Each of Alice's syncs reads her list at Cloudflare slowly: the first holds her one place.
    ctx.sandbox.control.injectFault({ path: `/accounts/${accounts.get(alice)}/rules/lists`, latencyMs: 150 });
    const finished: string[] = [];
    const timed = async <T>(name: string, answer: Promise<T>) => {
      const response = await answer;
      finished.push(name);
      return response;
    };
    const sync = () =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/cloudflare/banlists/${lists.get(alice)}/sync`,
        headers: alice.headers,
      });
    const alices = [0, 1, 2, 3].map((i) => timed(`alice ${i}`, sync()));
    const bobs = timed('bob', search(bob, 'case 5'));
    // Her line is full once one sync is refused (at once; the others take 150 ms or more).
    await vi.waitFor(() => expect(finished.some((name) => name.startsWith('alice'))).toBe(true));
    // A HEAD of a page runs the page's query as much as its GET: it takes the same line. Her lists
    // are not declared costly: they do not.
    const head = ctx.app.inject({
      method: 'HEAD',
      url: `/api/cloudflare/banlists/${lists.get(alice)}/items?search=case`,
      headers: alice.headers,
    });
    // A page answered before (kept) takes its place in the line as much as one read anew.
    const kept = search(alice, 'case 9');
    const listed = ctx.app.inject({ method: 'GET', url: '/api/cloudflare/banlists', headers: alice.headers });
    const answers = await Promise.all(alices);
    ctx.sandbox.control.clearFaults();
    expect((await head).statusCode).toBe(429);
    expect((await kept).statusCode).toBe(429);
    expect((await listed).statusCode).toBe(200);
    // One running, two waiting, the fourth refused at once.
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 200, 429]);
    const refused = answers.find((answer) => answer.statusCode === 429)!;
    expect(refused.json<ErrorBody>()).toEqual({
      code: 'RATE_LIMITED',
      message:
        'Too many requests at once: 1 item pages, searches or syncs run at a time and 2 wait; please try again in a moment.',
      errors: [{ code: 'RATE_LIMITED', message: refused.json<ErrorBody>().message }],
    });
    expect(refused.headers['retry-after']).toBe('1');
    expect((await bobs).statusCode).toBe(200);
    // Bob did not wait behind Alice's line: he was answered before her first sync.
    const firstSync = finished.findIndex(
      (name) => name.startsWith('alice') && answers[Number(name.slice(6))]!.statusCode === 200,
    );
    expect(finished.indexOf('bob')).toBeLessThan(firstSync);
  });

  it("lets a person's searches wait their turn, up to the line's length, instead of refusing them", async () => {
    const answers = await Promise.all(
      ['case 1', 'case 2', 'case 3'].map((text) => search(alice, text)).concat(search(bob, 'case 4')),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
  });

  it('gives the place back however a request ends', async () => {
    for (let i = 0; i < 4; i++) {
      const missing = await ctx.app.inject({
        method: 'GET',
        url: '/api/cloudflare/banlists/no-such-list/items',
        headers: alice.headers,
      });
      expect(missing.statusCode).toBe(404);
    }
    const answers = await Promise.all(['case 6', 'case 7', 'case 8'].map((text) => search(alice, text)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
  });
});

describe('slow clients, on real sockets (issue 33)', () => {
  let ctx: TestContext;
  let port: number;
  beforeAll(async () => {
    ctx = await createTestContext({
      config: { connections: { headersMs: 1_500, requestMs: 5_000, perAddress: 3 } },
    });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  afterAll(() => ctx.close());

  /** A connection from `from`; `closed` settles once the server closed it, with what it answered. */
  const open = (from = '127.0.0.1') => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from });
    let answered = '';
    socket.on('data', (chunk: Buffer) => (answered += chunk.toString('utf8')));
    const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(answered)));
    return { socket, closed, connected: new Promise((resolve) => socket.once('connect', resolve)) };
  };
  const health = () => fetch(`http://127.0.0.1:${port}/api/health`).then((answer) => answer.status);

  it('closes a connection still sending its headers past the bound (20 s in production)', async () => {
    expect(loadConfig({ GUARDIAN_MODE: 'test' }).connections.headersMs).toBe(20_000);
    const slow = open();
    await slow.connected;
    slow.socket.write('GET /api/health HTTP/1.1\r\nHost: guardian\r\n');
    let lines = 0;
    const drip = setInterval(
      () => slow.socket.writable && slow.socket.write(`X-Slow-${lines++}: a\r\n`),
      300,
    );
    const answer = await slow.closed;
    clearInterval(drip);
    // Closed while it was still sending (Node answers 408 as it closes), and the server serves on.
    // Within a few times the 1.5 s bound (300 ms a line), not Node's default 60 s.
    expect(lines).toBeGreaterThan(2);
    expect(lines).toBeLessThan(20);
    expect(answer).toMatch(/^HTTP\/1\.1 408|^$/);
    expect(await health()).toBe(200);
  });

  it('keeps at most 3 connections open from one address: a 4th is closed at once, another address is not', async () => {
    const held = [open(), open(), open()];
    await Promise.all(held.map((connection) => connection.connected));
    const fourth = open();
    expect(await fourth.closed).toBe('');
    const elsewhere = open('127.0.0.2');
    await elsewhere.connected;
    elsewhere.socket.write('GET /api/health HTTP/1.1\r\nHost: guardian\r\nConnection: close\r\n\r\n');
    expect(await elsewhere.closed).toMatch(/^HTTP\/1\.1 200/);
    // A closed one frees its place.
    held[0]!.socket.destroy();
    await held[0]!.closed;
    const again = open();
    await again.connected;
    again.socket.write('GET /api/health HTTP/1.1\r\nHost: guardian\r\nConnection: close\r\n\r\n');
    expect(await again.closed).toMatch(/^HTTP\/1\.1 200/);
    for (const connection of held) connection.socket.destroy();
  });
});
