/**
 * `npm run test:load`: a soak of the real server under many signed-in clients.
 *
 * The Cloudflare sandbox runs in this process; the Guardian server runs as a child process from its
 * own entry (apps/server/src/main.ts, production mode, embedded database in a temporary folder), so
 * its CPU and event loop are its own. USERS users each get their own Cloudflare account (a list of
 * 2,000 IP items, zones, DNS records) added through the API, then CLIENTS clients (spread over the
 * users) each sign in and, for SOAK_SECONDS, mix reads and writes as the screens do: item pages and
 * searches, item adds and deletes, the zones list, DNS records (read live from Cloudflare).
 *
 * It passes when no answer was a 5xx, every request got an answer, and at the end no item is lost or
 * duplicated: for every list, Cloudflare's items, the database's rows (read after a graceful stop) and
 * what the clients believe they added and deleted are the same set. Latency percentiles (p50, p90,
 * p99, max) overall and per kind of request go to bench/results/soak.json.
 *
 * Environment: SOAK_SECONDS (60), SOAK_CLIENTS (100), SOAK_USERS (5), SOAK_THINK_MS (mean pause
 * between a client's requests, 50), SOAK_PORT (0: a free port).
 *
 * The sandbox's per-token rate limit is off and the server's own Cloudflare budget raised: a soak
 * measures the console, and 20 busy clients on one token would otherwise only measure Cloudflare's
 * 1,200-requests-per-5-minutes wall (which faults.test.ts covers). For the same reason the server's
 * per-person limits are raised (request-limits.test.ts covers them).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  accountEndpoints,
  banListEndpoints,
  banListItemEndpoints,
  pathOf,
  zoneEndpoints,
} from '@guardian/contract';
import { createSandbox, type Sandbox } from '@guardian/sandbox';
import { loadConfig } from '../apps/server/src/config';
import { createDb } from '../apps/server/src/db';
import { runMigrations } from '../apps/server/src/db';
import { UsersRepository } from '../apps/server/src/modules/users';
import { UsersService } from '../apps/server/src/modules/users';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 100);
const USERS = Number(process.env.SOAK_USERS ?? 5);
const THINK_MS = Number(process.env.SOAK_THINK_MS ?? 50);
const SEEDED_ITEMS = 2_000;
const ZONES_PER_USER = 20;

type Op = 'items page' | 'items search' | 'add item' | 'delete item' | 'zones' | 'dns' | 'sign in';
const MIX: [Op, number][] = [
  ['items page', 30],
  ['items search', 15],
  ['add item', 15],
  ['delete item', 10],
  ['zones', 15],
  ['dns', 15],
];

interface UserSetup {
  email: string;
  password: string;
  cfAccountId: string;
  token: string;
  listId: string;
  zoneIds: string[];
  seededIps: string[];
}

interface ItemBelief {
  listId: string;
  ip: string;
  id?: number;
  state: 'added' | 'deleted' | 'unknown';
}

const latencies = new Map<Op, number[]>();
const statuses = new Map<string, number>();
const failures: string[] = [];
const beliefs: ItemBelief[] = [];

function log(message: string) {
  console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

async function freePort(): Promise<number> {
  if (process.env.SOAK_PORT && process.env.SOAK_PORT !== '0') return Number(process.env.SOAK_PORT);
  return new Promise((resolvePort) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    count: sorted.length,
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? 0),
  };
}

// ------------------------------------------------------------------ the stack

async function seedSandbox(sandbox: Sandbox, user: number): Promise<Omit<UserSetup, 'email' | 'password'>> {
  const { control } = sandbox;
  const account = control.addAccount({ name: `Soak ${user}`, plan: 'enterprise' });
  const token = `soak-token-${user}-${randomBytes(12).toString('hex')}`;
  control.addToken({ value: token, accountIds: [account.id] });
  const list = control.addList(account.id, { name: `soak_list_${user}`, kind: 'ip' });
  const seededIps = Array.from({ length: SEEDED_ITEMS }, (_, i) => `10.${user}.${i >> 8}.${i & 255}`);
  control.seedListItems(
    account.id,
    list.id,
    seededIps.map((ip, i) => ({ ip, comment: `seeded ${i}` })),
  );
  const zoneIds: string[] = [];
  for (let z = 0; z < ZONES_PER_USER; z++) {
    zoneIds.push(control.addZone(account.id, `soak-${user}-${z}.example.com`, { status: 'active' }).id);
  }
  for (const zoneId of zoneIds.slice(0, 3)) {
    for (let r = 0; r < 10; r++) {
      const response = await sandbox.app.inject({
        method: 'POST',
        url: `/client/v4/zones/${zoneId}/dns_records`,
        headers: { authorization: `Bearer ${token}` },
        payload: { type: 'A', name: `host${r}`, content: `198.51.100.${r + 1}`, ttl: 1, proxied: false },
      });
      if (response.statusCode !== 200) throw new Error(`seeding DNS: ${response.body}`);
    }
  }
  return { cfAccountId: account.id, token, listId: list.id, zoneIds, seededIps };
}

function startServer(env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (/"level":(50|60)/.test(line)) failures.push(`server logged an error: ${line.slice(0, 500)}`);
    }
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  return child;
}

async function waitForHealth(base: string, child: ChildProcess) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 250));
  }
  throw new Error('the server did not become healthy');
}

// ------------------------------------------------------------------ the clients

async function timed(op: Op, run: () => Promise<Response>): Promise<Response | null> {
  const started = performance.now();
  let response: Response;
  try {
    response = await run();
  } catch (err) {
    failures.push(`${op}: no answer (${(err as Error).message})`);
    statuses.set('no answer', (statuses.get('no answer') ?? 0) + 1);
    return null;
  }
  const body = await response.arrayBuffer();
  const ms = performance.now() - started;
  if (!latencies.has(op)) latencies.set(op, []);
  latencies.get(op)!.push(ms);
  const key = String(response.status);
  statuses.set(key, (statuses.get(key) ?? 0) + 1);
  if (response.status >= 500)
    failures.push(`${op}: ${response.status} ${Buffer.from(body).toString('utf8').slice(0, 300)}`);
  return new Response(response.status === 204 ? null : body, {
    status: response.status,
    headers: response.headers,
  });
}

function pick(): Op {
  const total = MIX.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = Math.random() * total;
  for (const [op, weight] of MIX) {
    roll -= weight;
    if (roll < 0) return op;
  }
  return MIX[0]![0];
}

async function client(index: number, base: string, user: UserSetup, deadline: number) {
  const signIn = await timed('sign in', () =>
    fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    }),
  );
  if (!signIn || signIn.status !== 200) {
    failures.push(`client ${index} could not sign in: ${signIn?.status}`);
    return;
  }
  const { token } = (await signIn.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}` };
  const json = { ...headers, 'content-type': 'application/json' };
  const items = `${base}/api/cloudflare/banlists/${user.listId}/items`;
  const mine: ItemBelief[] = [];
  let counter = 0;

  while (Date.now() < deadline) {
    const op = pick();
    switch (op) {
      case 'items page': {
        const page = 1 + Math.floor(Math.random() * 20);
        await timed(op, () => fetch(`${items}?page=${page}`, { headers }));
        break;
      }
      case 'items search': {
        const search =
          Math.random() < 0.5
            ? `10.${Math.floor(Math.random() * USERS)}.${Math.floor(Math.random() * 8)}`
            : 'seeded 1';
        await timed(op, () => fetch(`${items}?search=${encodeURIComponent(search)}`, { headers }));
        break;
      }
      case 'add item': {
        counter += 1;
        // A range no other client uses: 172.16.0.0/12 split by client.
        const ip = `172.${16 + (index >> 8)}.${index & 255}.${counter % 250}`;
        if (mine.some((belief) => belief.ip === ip && belief.state !== 'deleted')) break;
        const belief: ItemBelief = { listId: user.listId, ip, state: 'unknown' };
        beliefs.push(belief);
        const response = await timed(op, () =>
          fetch(items, {
            method: 'POST',
            headers: json,
            body: JSON.stringify({ ip, comment: `soak client ${index}` }),
          }),
        );
        if (response?.status === 201) {
          belief.state = 'added';
          belief.id = ((await response.json()) as { id: number }).id;
          mine.push(belief);
        } else if (response) {
          failures.push(`add item ${ip}: ${response.status} ${await response.text()}`);
        }
        break;
      }
      case 'delete item': {
        const target = mine.find((belief) => belief.state === 'added');
        if (!target) break;
        target.state = 'unknown';
        const response = await timed(op, () => fetch(`${items}/${target.id}`, { method: 'DELETE', headers }));
        if (response?.status === 204 || response?.status === 200) {
          target.state = 'deleted';
          mine.splice(mine.indexOf(target), 1);
        } else if (response) {
          failures.push(`delete item ${target.ip}: ${response.status} ${await response.text()}`);
        }
        break;
      }
      case 'zones':
        await timed(op, () => fetch(`${base}/api/cloudflare/zones`, { headers }));
        break;
      case 'dns': {
        const zoneId = user.zoneIds[Math.floor(Math.random() * 3)]!;
        await timed(op, () => fetch(`${base}/api/cloudflare/zones/${zoneId}/dns`, { headers }));
        break;
      }
      default:
        break;
    }
    if (THINK_MS > 0)
      await new Promise((resolveWait) => setTimeout(resolveWait, Math.random() * 2 * THINK_MS));
  }
}

// ------------------------------------------------------------------ the run

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'guardian-soak-'));
  const sandbox = await createSandbox({ rateLimit: false });
  const sandboxUrl = await sandbox.listen(0, '127.0.0.1');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    GUARDIAN_MODE: 'production',
    GUARDIAN_SECRET: randomBytes(48).toString('base64url'),
    GUARDIAN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    GUARDIAN_DATA_DIR: dataDir,
    GUARDIAN_WEB_DIST_DIR: join(dataDir, 'no-web'),
    PORT: String(port),
    HOST: '127.0.0.1',
    CLOUDFLARE_API_BASE_URL: sandboxUrl,
    CLOUDFLARE_RATE_LIMIT_REQUESTS: '1000000',
    // 20 clients share each user: the per-person limits (600 a minute, 2 costly requests at once),
    // which one person never reaches, would refuse them.
    GUARDIAN_RATE_LIMIT_PER_MINUTE: '100000000',
    GUARDIAN_RATE_LIMIT_CONCURRENT: '1000',
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
  };
  let server: ChildProcess | undefined;
  try {
    log(`seeding ${USERS} users, each with an account, ${SEEDED_ITEMS} items and ${ZONES_PER_USER} zones`);
    const config = loadConfig(env);
    const users: UserSetup[] = [];
    {
      // Users are created before the server starts: the embedded database has one owner at a time.
      const db = await createDb(config);
      await runMigrations(db);
      const service = new UsersService(new UsersRepository(db), config.passwordHashing);
      for (let u = 0; u < USERS; u++) {
        const email = `soak-${u}@example.com`;
        const password = `soak passphrase ${u}`;
        await service.create({ email, password, level: 1 });
        users.push({ email, password, ...(await seedSandbox(sandbox, u)) });
      }
      await db.close();
    }

    server = startServer(env);
    await waitForHealth(base, server);
    log(`server up at ${base}; adding each account and syncing its list and zones through the API`);
    for (const user of users) {
      const login = await fetch(`${base}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: user.email, password: user.password }),
      });
      const headers = {
        authorization: `Bearer ${((await login.json()) as { token: string }).token}`,
        'content-type': 'application/json',
      };
      const steps: [string, string, object?][] = [
        ['POST', accountEndpoints.add.path, { account_name: `Soak ${user.email}`, token: user.token }],
        ['POST', banListEndpoints.update.path],
        ['POST', pathOf(banListItemEndpoints.sync, { list_id: user.listId })],
        ['POST', zoneEndpoints.sync.path],
      ];
      for (const [method, url, body] of steps) {
        const response = await fetch(`${base}${url}`, {
          method,
          headers: body ? headers : { authorization: headers.authorization },
          body: body ? JSON.stringify(body) : undefined,
        });
        if (response.status >= 300)
          throw new Error(`setup ${method} ${url}: ${response.status} ${await response.text()}`);
      }
    }

    log(`${CLIENTS} clients for ${SECONDS} s`);
    const started = Date.now();
    const deadline = started + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CLIENTS }, (_, i) => client(i, base, users[i % USERS]!, deadline)),
    );
    const elapsed = (Date.now() - started) / 1000;
    await sandbox.control.settle();

    log('stopping the server gracefully, then comparing Cloudflare, the database and the clients');
    server.kill('SIGTERM');
    const exitCode = await new Promise<number | null>((resolveExit) =>
      server!.once('exit', (code) => resolveExit(code)),
    );
    if (exitCode !== 0) failures.push(`the server exited with ${exitCode} after SIGTERM`);
    server = undefined;

    const db = await createDb(config);
    const consistency = [];
    for (const user of users) {
      const rows = await db.query<{ item_id: string; ip: string }>(
        `SELECT i.item_id, i.ip FROM ban_list_items i JOIN ban_lists l ON l.id = i.ban_list_ref WHERE l.list_id = $1`,
        [user.listId],
      );
      const cloudflare = sandbox.control
        .getListItems(user.cfAccountId, user.listId)
        .map((item) => ({ id: String(item.id), ip: String(item.ip) }));
      const dbIps = rows.map((row) => row.ip);
      const cfIps = cloudflare.map((item) => item.ip);
      const mine = beliefs.filter((belief) => belief.listId === user.listId);
      const expected = new Set(user.seededIps);
      for (const belief of mine) {
        if (belief.state === 'added') expected.add(belief.ip);
        if (belief.state === 'deleted') expected.delete(belief.ip);
      }
      const uncertain = new Set(
        mine.filter((belief) => belief.state === 'unknown').map((belief) => belief.ip),
      );
      const dbSet = new Set(dbIps);
      const cfSet = new Set(cfIps);
      const lost = [...expected].filter((ip) => !dbSet.has(ip) || !cfSet.has(ip));
      const unexpected = [...new Set([...dbIps, ...cfIps])].filter(
        (ip) => !expected.has(ip) && !uncertain.has(ip),
      );
      const duplicatedInDb = dbIps.length - dbSet.size;
      const duplicatedAtCloudflare = cfIps.length - cfSet.size;
      const dbIds = new Set(rows.map((row) => `${row.item_id} ${row.ip}`));
      const differing =
        cloudflare.filter((item) => !dbIds.has(`${item.id} ${item.ip}`)).length +
        Math.max(0, rows.length - cloudflare.length);
      const entry = {
        list: user.listId,
        cloudflareItems: cfIps.length,
        databaseRows: dbIps.length,
        expected: expected.size,
        added: mine.filter((belief) => belief.state === 'added').length,
        deleted: mine.filter((belief) => belief.state === 'deleted').length,
        uncertain: uncertain.size,
        lost: lost.length,
        unexpected: unexpected.length,
        duplicatedInDb,
        duplicatedAtCloudflare,
        databaseDiffersFromCloudflare: differing,
      };
      consistency.push(entry);
      if (lost.length)
        failures.push(`list ${user.listId}: ${lost.length} items lost, e.g. ${lost.slice(0, 3).join(', ')}`);
      if (unexpected.length)
        failures.push(
          `list ${user.listId}: ${unexpected.length} items nobody added, e.g. ${unexpected.slice(0, 3).join(', ')}`,
        );
      if (duplicatedInDb || duplicatedAtCloudflare)
        failures.push(
          `list ${user.listId}: duplicated items (${duplicatedInDb} rows, ${duplicatedAtCloudflare} at Cloudflare)`,
        );
      if (differing) failures.push(`list ${user.listId}: ${differing} rows differ from Cloudflare's items`);
    }
    await db.close();

    const all = [...latencies.entries()].filter(([op]) => op !== 'sign in').flatMap(([, values]) => values);
    const requests = [...statuses.values()].reduce((sum, count) => sum + count, 0);
    const serverErrors = [...statuses.entries()]
      .filter(([status]) => Number(status) >= 500)
      .reduce((sum, [, count]) => sum + count, 0);
    const result = {
      ok: failures.length === 0,
      startedAt: new Date(started).toISOString(),
      seconds: Math.round(elapsed * 10) / 10,
      clients: CLIENTS,
      users: USERS,
      thinkMs: THINK_MS,
      machine: { cpus: cpus().length, node: process.version },
      database: 'pglite',
      requests,
      requestsPerSecond: Math.round(requests / elapsed),
      statuses: Object.fromEntries(statuses),
      serverErrors,
      latencyMs: summary(all),
      p99Ms: summary(all).p99,
      byRequest: Object.fromEntries([...latencies.entries()].map(([op, values]) => [op, summary(values)])),
      consistency,
      failures: failures.slice(0, 50),
      failureCount: failures.length,
      notes:
        'Cloudflare sandbox in the soak process with its rate limit off; server as a child process in production mode on the embedded database.',
    };
    const out = join(ROOT, 'bench', 'results', 'soak.json');
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
    log(
      `${requests} requests (${result.requestsPerSecond}/s), p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms, max ${result.latencyMs.max} ms; ` +
        `5xx: ${serverErrors}; failures: ${failures.length}; written to bench/results/soak.json`,
    );
    for (const failure of failures.slice(0, 20)) log(`FAIL ${failure}`);
    process.exitCode = failures.length === 0 ? 0 : 1;
  } finally {
    if (server && server.exitCode === null) server.kill('SIGKILL');
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error('The soak failed to run:', err);
  process.exit(1);
});
