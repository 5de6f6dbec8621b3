import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  accountEndpoints,
  authEndpoints,
  dnsRecordEndpoints,
  healthEndpoints,
  zoneEndpoints,
} from '@guardian/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../config';
import { isRunning } from '../db/data-dir-lock';
import type { PgliteDb } from '../db/pglite';
import { runServer } from '../server';
import { createTestContext, type TestContext } from '../test/context';
import { requestTo } from '../test/request';
import { createCloudflareTestContext, type CloudflareTestContext } from '../test/cloudflare-context';
import { call, seedEstate, type Estate } from '../test/security';

/**
 * The server survives PostgreSQL going away and coming back. The test's own database connections go
 * through a TCP proxy this file controls, so cutting them disturbs no other suite. Whether the database
 * refuses connections, never answers new ones, or goes silent on open ones (a partition), every route
 * that needs it answers 503 with the contract's JSON message, quickly, and nothing
 * is written to Cloudflare; a sync cut in the middle leaves the old mirror whole; when the database is
 * back the same requests answer 200 without a restart. On PGlite the database is a process of the
 * server's own: if it dies, the requests it was answering get the same 503 and the next ones find it
 * restarted on the same folder, with everything committed before.
 */

const onPostgres = process.env.TEST_DB === 'postgres' && !!process.env.DATABASE_URL;

type Mode = 'up' | 'refuse' | 'blackhole' | 'stall';

/**
 * A TCP proxy to PostgreSQL. 'refuse': every connection is reset (a database that is down).
 * 'blackhole': new connections are accepted and never answered. 'stall': open connections stop
 * carrying data without closing, and new ones are blackholed (a network partition: no reset ever
 * arrives).
 */
class DatabaseProxy {
  private server!: Server;
  private readonly sockets = new Set<Socket>();
  /** Connections accepted during an outage (blackholed), closed when the database comes back. */
  private readonly stranded = new Set<Socket>();
  private readonly pairs = new Set<[Socket, Socket]>();
  mode: Mode = 'up';
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((client) => {
      this.sockets.add(client);
      client.on('close', () => this.sockets.delete(client));
      client.on('error', () => client.destroy());
      if (this.mode === 'refuse') return client.resetAndDestroy();
      if (this.mode === 'blackhole' || this.mode === 'stall') return void this.stranded.add(client);
      const upstream = connect(this.targetPort, this.targetHost);
      this.sockets.add(upstream);
      const pair: [Socket, Socket] = [client, upstream];
      this.pairs.add(pair);
      upstream.on('close', () => {
        this.sockets.delete(upstream);
        this.pairs.delete(pair);
        client.destroy();
      });
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  /** Drops (or, for 'stall', freezes) every open connection and handles new ones per `mode`. */
  cut(mode: Exclude<Mode, 'up'>): void {
    this.mode = mode;
    if (mode === 'stall') {
      for (const [client, upstream] of this.pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
        this.stranded.add(client).add(upstream);
      }
      this.pairs.clear();
      return;
    }
    for (const socket of this.sockets) socket.resetAndDestroy();
    this.sockets.clear();
  }

  restore(): void {
    this.mode = 'up';
    // Connections blackholed during the outage: close them, as a recovered network would.
    for (const socket of this.stranded) socket.resetAndDestroy();
    this.stranded.clear();
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const unavailable = {
  code: 'UNAVAILABLE',
  message: 'The database is unavailable. Please try again shortly.',
  errors: [{ code: 'UNAVAILABLE', message: 'The database is unavailable. Please try again shortly.' }],
};

let recordCounter = 0;

/** What browsers ask of a signed-in user's estate: reads, a sign-in, and writes to Cloudflare. */
const requests = (estate: Estate) => {
  const zone = { zone_id: estate.zone.zoneId };
  const signedIn = { headers: estate.user.headers };
  return [
    { ...requestTo(healthEndpoints.check), headers: {} },
    { ...requestTo(authEndpoints.me), ...signedIn },
    { ...requestTo(accountEndpoints.list), ...signedIn },
    { ...requestTo(zoneEndpoints.list), ...signedIn },
    { ...requestTo(dnsRecordEndpoints.list, { params: zone }), ...signedIn },
    {
      ...requestTo(authEndpoints.login, {
        payload: { email: estate.user.email, password: estate.user.password },
      }),
      headers: {},
    },
    {
      ...requestTo(dnsRecordEndpoints.add, {
        params: zone,
        payload: {
          type: 'A',
          name: `outage-${++recordCounter}`,
          content: '203.0.113.99',
          ttl: 1,
          proxied: false,
        },
      }),
      ...signedIn,
    },
    { ...requestTo(zoneEndpoints.sync), ...signedIn },
  ];
};

/** Every request at once, as many browsers would send them. */
async function answers(ctx: CloudflareTestContext, estate: Estate) {
  return Promise.all(
    requests(estate).map(async (request) => {
      const started = Date.now();
      const response = await ctx.app.inject(request);
      return {
        what: `${request.method} ${request.url}`,
        status: response.statusCode,
        body: response.json(),
        retryAfter: response.headers['retry-after'],
        ms: Date.now() - started,
      };
    }),
  );
}

describe.skipIf(!onPostgres)('the database going away and coming back (PostgreSQL)', () => {
  let proxy: DatabaseProxy;
  let ctx: CloudflareTestContext;
  let estate: Estate;

  beforeAll(async () => {
    const target = new URL(process.env.DATABASE_URL!);
    proxy = new DatabaseProxy(target.hostname, Number(target.port || 5432));
    await proxy.start();
    const proxied = new URL(process.env.DATABASE_URL!);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    ctx = await createCloudflareTestContext({
      // Short query and read bounds, so a stalled connection fails in a second and a half, not a minute.
      config: {
        databaseUrl: proxied.toString(),
        databaseQueryTimeoutMs: 1_500,
        databaseReadTimeoutMs: 1_500,
        loginRateLimit: { windowSeconds: 900, maxFailuresPerEmail: 3, maxFailuresPerAddress: 100 },
      },
    });
    estate = await seedEstate(ctx, await ctx.createUser(), 'outage');
  }, 120_000);
  afterAll(async () => {
    if (proxy?.mode !== 'up') proxy.restore();
    await ctx?.close();
    await proxy?.stop();
  });

  it('works before the outage', async () => {
    for (const answer of await answers(ctx, estate)) expect(answer.status, answer.what).toBeLessThan(300);
  });

  it.each(['refuse', 'blackhole', 'stall'] as const)(
    'answers 503 with a JSON message while the database is gone (%s), writes nothing to Cloudflare, and recovers alone',
    async (mode) => {
      const dnsBefore = ctx.sandbox.control.getDnsRecords(estate.zone.zoneId).length;
      proxy.cut(mode);
      try {
        for (const answer of await answers(ctx, estate)) {
          expect(answer.status, answer.what).toBe(503);
          expect(answer.body, answer.what).toEqual(unavailable);
          // Refused connections fail at once; a silent network within the pool's connect timeout (5 s)
          // or the query timeout (1.5 s here), twice for a transaction's query and its rollback.
          expect(answer.ms, answer.what).toBeLessThan(mode === 'refuse' ? 2_000 : 8_000);
        }
        expect(ctx.sandbox.control.getDnsRecords(estate.zone.zoneId)).toHaveLength(dnsBefore);
      } finally {
        proxy.restore();
      }
      // Back: the same requests succeed without a restart (the pool opens new connections).
      const deadline = Date.now() + 10_000;
      let last = await answers(ctx, estate);
      while (last.some((answer) => answer.status >= 300) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        last = await answers(ctx, estate);
      }
      for (const answer of last) expect(answer.status, `${answer.what} after the outage`).toBeLessThan(300);
    },
    60_000,
  );

  it('does not count sign-ins the database could not check against the person', async () => {
    proxy.cut('refuse');
    try {
      for (let i = 0; i < 5; i++) {
        const response = await ctx.app.inject(
          requestTo(authEndpoints.login, { payload: { email: estate.user.email, password: 'wrong' } }),
        );
        expect(response.statusCode).toBe(503);
      }
    } finally {
      proxy.restore();
    }
    const response = await ctx.app.inject(
      requestTo(authEndpoints.login, {
        payload: { email: estate.user.email, password: estate.user.password },
      }),
    );
    expect(response.statusCode).toBe(200);
  });

  it('a sync cut off in the middle keeps the old mirror whole', async () => {
    const mirror = async () =>
      (await ctx.db.query<{ zone_id: string }>('SELECT zone_id FROM zones ORDER BY zone_id')).map(
        (row) => row.zone_id,
      );
    const before = await mirror();
    // A new zone at Cloudflare, and a slow zone list, so the cut lands while the sync is under way.
    ctx.sandbox.control.addZone(estate.cfAccountId, 'appears-during-outage.com', { status: 'active' });
    ctx.sandbox.control.injectFault({ path: '/zones', method: 'GET', latencyMs: 400, times: 1 });
    const sync = ctx.app.inject({ ...requestTo(zoneEndpoints.sync), headers: estate.user.headers });
    await new Promise((resolve) => setTimeout(resolve, 150));
    proxy.cut('refuse');
    const response = await sync;
    proxy.restore();
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual(unavailable);
    await waitForDatabase();
    expect(await mirror()).toEqual(before);
    // And the next sync, with the database back, brings it in.
    await call(ctx, estate.user, zoneEndpoints.sync);
    expect(await mirror()).toEqual(expect.arrayContaining([...before]));
    expect((await mirror()).length).toBe(before.length + 1);
  });

  async function waitForDatabase() {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if ((await ctx.app.inject(requestTo(healthEndpoints.check))).statusCode === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the database did not come back');
  }
});

describe.skipIf(!onPostgres)('a locked table (PostgreSQL)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({
      // The general bound as in production (60 s): only reads get the short one.
      config: { databaseQueryTimeoutMs: 60_000, databaseReadTimeoutMs: 1_000 },
      setup(app) {
        const count = async () => ctx.db.query('SELECT count(*) AS items FROM ban_list_items');
        app.get('/api/test/items', count);
        app.post('/api/test/items', count);
      },
    });
  }, 120_000);
  afterAll(async () => ctx?.close());

  it('answers a read 503 with retry-after at its bound, while a write waits for the lock', async () => {
    const headers = { authorization: `Bearer ${(await ctx.createUser()).token}` };
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    // An exclusive lock on the items for 6 s (a migration, a maintenance statement).
    const lock = ctx.db.transaction(async (tx) => {
      await tx.query('LOCK TABLE ban_list_items IN ACCESS EXCLUSIVE MODE');
      locked();
      await Promise.race([held, new Promise((resolve) => setTimeout(resolve, 6_000))]);
    });
    await lockTaken;
    try {
      const write = ctx.app.inject({ method: 'POST', url: '/api/test/items', headers });
      const started = Date.now();
      const read = await ctx.app.inject({ method: 'GET', url: '/api/test/items', headers });
      console.log(`a read behind a locked table waited ${Date.now() - started} ms`);
      expect(read.statusCode).toBe(503);
      expect(read.json()).toEqual(unavailable);
      expect(Number(read.headers['retry-after'])).toBeGreaterThan(0);
      // A write (or a job) keeps the long bound: it is answered once the lock ends.
      expect((await write).statusCode).toBe(200);
    } finally {
      release();
      await lock;
    }
  }, 60_000);
});

describe.skipIf(onPostgres)("the embedded database's process dying (PGlite)", () => {
  let folder: string;
  let ctx: CloudflareTestContext;
  let estate: Estate;
  const hostPid = () => (ctx.db as PgliteDb).hostPid()!;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'guardian-outage-'));
    ctx = await createCloudflareTestContext({
      // On a folder, as in production (tests otherwise keep PGlite in memory, which a restart empties).
      config: {
        mode: 'production',
        dataDir: folder,
        databaseQueryTimeoutMs: 6_000,
        databaseReadTimeoutMs: 3_000,
      },
      setup: (app) => {
        // A request whose database work lasts long enough to be cut off in the middle.
        app.get('/api/test/slow-query', async () => ctx.db.query('SELECT pg_sleep(2)'));
      },
    });
    estate = await seedEstate(ctx, await ctx.createUser(), 'host');
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('answers 503 to the request it was serving, and the next requests find it restarted with their data', async () => {
    const firstHost = hostPid();
    const zonesBefore = (await call(ctx, estate.user, zoneEndpoints.list)).json();
    const slow = ctx.app.inject({ method: 'GET', url: '/api/test/slow-query', headers: estate.user.headers });
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(firstHost, 'SIGKILL');
    const response = await slow;
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual(unavailable);

    // The user, their account and zones were committed before: a new process on the same folder has them.
    for (const answer of await answers(ctx, estate)) expect(answer.status, answer.what).toBeLessThan(300);
    expect(hostPid()).not.toBe(firstHost);
    expect((await call(ctx, estate.user, zoneEndpoints.list)).json()).toEqual(zonesBefore);
  }, 60_000);

  it('answers 503 with retry-after within its bound while its process is stopped, health included, and recovers', async () => {
    const host = hostPid();
    process.kill(host, 'SIGSTOP');
    // Without a bound every request would wait for this.
    const resume = setTimeout(() => process.kill(host, 'SIGCONT'), 20_000);
    try {
      const stalled = await answers(ctx, estate);
      console.log(
        'with the database stopped:',
        stalled.map((a) => `${a.what} ${a.status} ${a.ms} ms`),
      );
      for (const answer of stalled) {
        expect(answer.status, answer.what).toBe(503);
        expect(answer.body, answer.what).toEqual(unavailable);
        expect(Number(answer.retryAfter), answer.what).toBeGreaterThan(0);
      }
    } finally {
      clearTimeout(resume);
      process.kill(host, 'SIGCONT');
    }
    // Running again, it answers what waited, then the same requests.
    const deadline = Date.now() + 30_000;
    let last = await answers(ctx, estate);
    while (last.some((answer) => answer.status >= 300) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      last = await answers(ctx, estate);
    }
    for (const answer of last) expect(answer.status, `${answer.what} after`).toBeLessThan(300);
    expect(hostPid()).toBe(host);
  }, 90_000);
});

describe.skipIf(onPostgres)("the server's stop with its embedded database stopped mid-statement", () => {
  let folder: string;
  beforeAll(() => (folder = mkdtempSync(join(tmpdir(), 'guardian-stop-'))));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('ends the database process within its bound, and the next start opens the folder', async () => {
    const base = loadConfig({ GUARDIAN_MODE: 'test' });
    const config: Config = {
      ...base,
      mode: 'production',
      dataDir: folder,
      databaseUrl: undefined,
      databaseQueryTimeoutMs: 2_000,
      databaseReadTimeoutMs: 1_000,
      port: 0,
      host: '127.0.0.1',
      logLevel: 'silent',
    };
    const first = await runServer(config, { handleSignals: false });
    const host = (first.db as PgliteDb).hostPid()!;
    try {
      const statement = first.db.query('SELECT pg_sleep(0.5)').catch(() => undefined);
      process.kill(host, 'SIGSTOP');
      const started = Date.now();
      const verdict = await Promise.race([
        first.stop().then(() => 'stopped'),
        new Promise((resolve) => setTimeout(() => resolve('still stopping'), 40_000)),
      ]);
      console.log(`the stop took ${Date.now() - started} ms`);
      expect(verdict).toBe('stopped');
      expect(isRunning(host)).toBe(false);
      await statement;
    } finally {
      if (isRunning(host)) process.kill(host, 'SIGKILL');
    }
    const second = await runServer(config, { handleSignals: false });
    try {
      expect((await second.app.inject(requestTo(healthEndpoints.check))).statusCode).toBe(200);
    } finally {
      await second.stop();
    }
  }, 180_000);
});
