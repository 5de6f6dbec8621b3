import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { BanList, Job } from '@guardian/contract';
import { createSandbox, type Sandbox } from '@guardian/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { createDb, type Db } from './db';
import { MIGRATION_LOCK_ID } from './db/migrate';
import { UsersRepository } from './modules/users';
import { UsersService } from './modules/users';
import { freePort } from './test/free-port';

/**
 * Issue 14's scale-out, shown with real processes: two Guardian servers (`main.ts`, each its own
 * node process, pool, job worker and Cloudflare clients) on one PostgreSQL schema, behind nothing but
 * two ports, in front of a sandbox that refuses a second pending list write per account and counts
 * the token's calls as Cloudflare does. PGlite is one process by design, so this runs on PostgreSQL.
 */
const onPostgres = process.env.TEST_DB === 'postgres';
const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const TSX = createRequire(import.meta.url).resolve('tsx');
const BIG_LIST_ITEMS = 100_000;
const PASSWORD = 'correct horse battery';

interface Server {
  name: string;
  url: string;
  child: ChildProcess;
  output: string[];
}

describe.runIf(onPostgres)('two server processes on one PostgreSQL', () => {
  let sandbox: Sandbox;
  let db: Db;
  let schema: string;
  let a: Server;
  let b: Server;
  let headers: { authorization: string };
  let accountId: string;
  let token: string;
  const servers: Server[] = [];

  async function startServer(name: string, env: Record<string, string>): Promise<Server> {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', TSX, MAIN], {
      env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    const keep = (chunk: Buffer) => output.push(chunk.toString('utf8').slice(0, 2_000));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const server = { name, url: `http://127.0.0.1:${port}`, child, output };
    servers.push(server);
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${name} exited: ${output.join('')}`);
      const health = await fetch(`${server.url}/api/health`).catch(() => null);
      if (health?.ok) return server;
      if (Date.now() > deadline) throw new Error(`${name} did not start: ${output.join('')}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  async function call<T>(server: Server, method: string, path: string, body?: unknown) {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T, text };
  }

  /** The call's work, whether it answered at once or with its job (followed on `via`). */
  async function done(server: Server, method: string, path: string, body?: unknown, via = server) {
    const answer = await call<Job>(server, method, path, body);
    expect(answer.status, `${server.name} ${method} ${path}: ${answer.text}`).toBeLessThan(300);
    if (answer.status !== 202) return answer;
    return { ...answer, body: await ended(via, answer.body.id) };
  }

  async function ended(server: Server, id: string, timeoutMs = 150_000): Promise<Job> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { body: job } = await call<Job>(server, 'GET', `/api/jobs/${id}`);
      if (['succeeded', 'failed', 'cancelled'].includes(job.state)) return job;
      if (Date.now() > deadline) throw new Error(`job ${id} still ${job.state}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  const mirrored = async (listId: string) =>
    (
      await db.query<{ item_id: string }>(
        `SELECT i.item_id FROM ban_list_items i JOIN ban_lists l ON l.id = i.ban_list_ref
         WHERE l.list_id = $1 ORDER BY i.item_id`,
        [listId],
      )
    ).map((row) => row.item_id);
  const atCloudflare = (listId: string) =>
    sandbox.control
      .getListItems(accountId, listId)
      .map((item) => String(item.id))
      .sort();
  /** Item writes Cloudflare refused because another of the account was pending, or past the budget. */
  const refused = () => sandbox.control.callLog().filter((entry) => entry.status === 429).length;

  beforeAll(async () => {
    // Cloudflare's own limits: 1,200 calls per 5 minutes per token, one pending list write per account.
    sandbox = await createSandbox({ operationDelayMs: 20 });
    const baseUrl = await sandbox.listen(0, '127.0.0.1');
    const account = sandbox.control.addAccount({ name: 'Scale Co', plan: 'enterprise' });
    accountId = account.id;
    token = `scale-${randomBytes(16).toString('hex')}`;
    sandbox.control.addToken({ value: token, accountIds: [accountId] });

    const config = loadConfig({ GUARDIAN_MODE: 'test', DATABASE_URL: process.env.DATABASE_URL });
    schema = `t_${randomBytes(6).toString('hex')}`;
    db = await createDb(config, { schema });
    await db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
      await tx.exec(`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public; CREATE SCHEMA ${schema};`);
    });

    const url = new URL(process.env.DATABASE_URL!);
    url.searchParams.set('options', `-c search_path=${schema},public`);
    const env = {
      DATABASE_URL: url.toString(),
      GUARDIAN_SECRET: randomBytes(48).toString('base64url'),
      GUARDIAN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      CLOUDFLARE_API_BASE_URL: baseUrl,
    };
    // Both start at once: each runs the migrations under the lock, the second finds them done.
    [a, b] = await Promise.all([startServer('server A', env), startServer('server B', env)]);

    const users = new UsersService(new UsersRepository(db), config.passwordHashing);
    const user = await users.create({ email: 'scale@example.com', password: PASSWORD, level: 1 });
    const login = await fetch(`${a.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: PASSWORD }),
    });
    headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
    const added = await call(b, 'POST', '/api/cloudflare/accounts', { account_name: 'Scale Co', token });
    expect(added.status, added.text).toBe(201);
  }, 300_000);

  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGKILL');
    await db?.exec(`DROP SCHEMA ${schema} CASCADE`).catch(() => undefined);
    await db?.close();
    await sandbox?.close();
  });

  it('syncs, adds and deletes sent to both at once leave every list equal, with no write refused', async () => {
    const lists = ['one', 'two', 'three'].map((name) => {
      const list = sandbox.control.addList(accountId, { name: `scale_${name}`, kind: 'ip' });
      sandbox.control.seedListItems(
        accountId,
        list.id,
        Array.from({ length: 300 }, (_, i) => ({ ip: `10.${secondOctet(name)}.${i >> 8}.${i & 255}` })),
      );
      return list.id;
    });
    await done(a, 'POST', '/api/cloudflare/banlists/update');
    await Promise.all(
      lists.map((id, i) => done(i % 2 ? a : b, 'POST', `/api/cloudflare/banlists/${id}/sync`)),
    );

    const adds = lists.flatMap((id, l) =>
      Array.from({ length: 6 }, (_, i) => {
        const server = i % 2 ? a : b;
        return call<unknown>(server, 'POST', `/api/cloudflare/banlists/${id}/items`, {
          ip: `192.0.${l}.${i + 1}`,
          comment: `added through ${server.name}`,
        });
      }),
    );
    const syncs = lists.map((id, i) =>
      call<unknown>(i % 2 ? b : a, 'POST', `/api/cloudflare/banlists/${id}/sync`),
    );
    const answers = await Promise.all([...adds, ...syncs]);
    for (const answer of answers) expect([200, 201, 202], answer.text).toContain(answer.status);
    const jobs = answers.filter((answer) => answer.status === 202).map((answer) => answer.body as Job);
    for (const job of jobs) expect((await ended(a, job.id)).state).toBe('succeeded');

    // Deletes from both, of items each server's mirror holds.
    for (const id of lists) {
      const page = await call<{ items: { id: number }[] }>(
        a,
        'GET',
        `/api/cloudflare/banlists/${id}/items?page=1`,
      );
      const gone = page.body.items.slice(0, 4);
      const deleted = await Promise.all(
        gone.map((item, i) =>
          call(i % 2 ? a : b, 'DELETE', `/api/cloudflare/banlists/${id}/items/${item.id}`),
        ),
      );
      for (const answer of deleted) expect(answer.status, answer.text).toBe(204);
    }

    for (const id of lists) {
      expect(sandbox.control.getListItems(accountId, id)).toHaveLength(300 + 6 - 4);
      expect(await mirrored(id)).toEqual(atCloudflare(id));
    }
    expect(refused()).toBe(0);
    // Within the token's budget (the console keeps 1,100 of Cloudflare's 1,200 per 5 minutes).
    expect(sandbox.control.callLog({ token }).length).toBeLessThanOrEqual(1_100);
  }, 240_000);

  it('an add sent to one server while the other syncs the same list waits its turn: both land, the mirror equals Cloudflare', async () => {
    const list = sandbox.control.addList(accountId, { name: 'scale_turns', kind: 'ip' });
    sandbox.control.seedListItems(
      accountId,
      list.id,
      Array.from({ length: 3_000 }, (_, i) => ({ ip: `10.150.${i >> 8}.${i & 255}` })),
    );
    await done(a, 'POST', '/api/cloudflare/banlists/update');
    // Slow pages: A's sync reads for seconds, and B's add arrives while it does.
    const pages = new RegExp(`/rules/lists/${list.id}/items$`);
    sandbox.control.injectFault({ method: 'GET', path: pages, latencyMs: 300 });
    try {
      const sync = done(a, 'POST', `/api/cloudflare/banlists/${list.id}/sync`);
      while (sandbox.control.callLog({ method: 'GET', path: pages }).length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const add = call(b, 'POST', `/api/cloudflare/banlists/${list.id}/items`, {
        ip: '192.0.2.150',
        comment: 'added during a sync',
      });
      const [synced, added] = await Promise.all([sync, add]);
      expect(added.status, added.text).toBe(201);
      if ('state' in (synced.body as Job)) expect((synced.body as Job).state).toBe('succeeded');
    } finally {
      sandbox.control.clearFaults();
    }
    expect(sandbox.control.getListItems(accountId, list.id)).toHaveLength(3_001);
    expect(await mirrored(list.id)).toEqual(atCloudflare(list.id));
  }, 120_000);

  it('a server killed in the middle of a 100,000-item sync: the other finishes the job, nothing lost or doubled', async () => {
    const big = sandbox.control.addList(accountId, { name: 'scale_big', kind: 'ip' });
    sandbox.control.seedListItems(
      accountId,
      big.id,
      Array.from({ length: BIG_LIST_ITEMS }, (_, i) => ({
        ip: `10.${200 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}`,
        comment: `big ${i}`,
      })),
    );
    await done(b, 'POST', '/api/cloudflare/banlists/update');
    // Slow pages, so the sync is surely in the middle when A is killed.
    sandbox.control.injectFault({
      method: 'GET',
      path: new RegExp(`/rules/lists/${big.id}/items$`),
      latencyMs: 40,
    });
    const started = await call<Job | BanList>(a, 'POST', `/api/cloudflare/banlists/${big.id}/sync`);
    expect(started.status, started.text).toBe(202);
    const job = started.body as Job;
    for (;;) {
      const { body } = await call<Job>(b, 'GET', `/api/jobs/${job.id}`);
      if (body.state === 'running' && body.done > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    a.child.kill('SIGKILL');
    sandbox.control.clearFaults();

    // B's sweep finds A's run silent (30 s) and gives the job back; B's worker runs it again.
    const finished = await ended(b, job.id, 180_000);
    expect(finished.state, finished.error ?? '').toBe('succeeded');
    expect(finished.attempts).toBeGreaterThanOrEqual(2);
    const items = await mirrored(big.id);
    expect(items).toHaveLength(BIG_LIST_ITEMS);
    expect(new Set(items).size).toBe(BIG_LIST_ITEMS);
    expect(items).toEqual(atCloudflare(big.id));
    const lists = await call<BanList[]>(b, 'GET', '/api/cloudflare/banlists');
    expect(lists.body.find((list) => list.list_id === big.id)?.items).toBe(BIG_LIST_ITEMS);
    expect(refused()).toBe(0);
  }, 300_000);
});

/** A distinct second octet per list of the first test. */
function secondOctet(name: string): number {
  return ['one', 'two', 'three'].indexOf(name) + 1;
}
