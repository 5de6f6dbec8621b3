import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isGone } from './db/data-dir-lock';
import { withoutDatabaseUrl } from './test/child-env';
import { freePort } from './test/free-port';

/**
 * Issue 41: after a freeze, a stop of the demo left its embedded database's process running and holding
 * the data folder's lock, and the next start was refused until that process was killed by hand. Shown
 * on the real demo (`demo.ts`, its own node process): its database process is stopped (SIGSTOP) while
 * the server works, then the server is stopped (SIGTERM) or killed (SIGKILL), and started again.
 */
const onPglite = process.env.TEST_DB !== 'postgres';
const DEMO = fileURLToPath(new URL('./demo.ts', import.meta.url));
const TSX = createRequire(import.meta.url).resolve('tsx');
// The demo's sign-ins (demo.ts, which starts the demo when imported).
const ADMIN = { email: 'admin@guardian.local', password: 'guardian-admin' };
const USER = { email: 'user@guardian.local', password: 'guardian-user' };
/** A first start seeds the sandbox and the console (10,000 items synced): minutes on a busy machine. */
const START_TIMEOUT_MS = 240_000;
/**
 * A stop waits for requests in flight and then for the database; the server's own watchdog ends it after
 * 15 s (server.ts), a database that does not close is killed after 5 s (db/pglite.ts). Generous: the
 * machine is noisy, and what is asserted is that it ends, not how fast.
 */
const STOP_TIMEOUT_MS = 60_000;

interface Demo {
  child: ChildProcess;
  url: string;
  output: string[];
  exited: Promise<void>;
}

/** The pid of the server's embedded database process: its child running pglite-host. */
function databaseProcessOf(server: number): number | undefined {
  const children = readdirSync(`/proc/${server}/task`).flatMap((task) =>
    readFileSync(`/proc/${server}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
  return children.find((pid) => commandLineOf(pid).includes('pglite-host'));
}

function commandLineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/** A process stopped by a signal (state T), as a frozen database process is. */
const isStopped = (pid: number) => /^\d+ \(.*\) T/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));

describe.runIf(onPglite)('the demo stopped while its embedded database is frozen', () => {
  let folder: string;
  const started: Demo[] = [];
  const databaseProcesses: number[] = [];
  let demo: Demo | undefined;

  async function startDemo(): Promise<Demo> {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', TSX, DEMO], {
      // Without DATABASE_URL (CI sets it for the PostgreSQL suites): the demo's database is the embedded one.
      env: {
        ...withoutDatabaseUrl(process.env),
        GUARDIAN_DATA_DIR: join(folder, 'data'),
        PORT: String(port),
        HOST: '127.0.0.1',
        SANDBOX_PORT: '0',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    // Its exit, not its output's end: a database process it leaves behind holds the output open.
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const running = { child, url: `http://127.0.0.1:${port}`, output, exited };
    started.push(running);
    const deadline = Date.now() + START_TIMEOUT_MS;
    // Seeded and ready: the demo says so once its seeding (which signs in and syncs) is done.
    while (!output.join('').includes('Guardian demo is ready')) {
      if (child.exitCode !== null) throw new Error(`The demo exited: ${output.join('')}`);
      if (Date.now() > deadline) throw new Error(`The demo did not start: ${output.join('')}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect((await fetch(`${running.url}/api/health`)).status).toBe(200);
    const database = databaseProcessOf(child.pid!);
    expect(database, 'the demo runs its database in a process of its own').toBeDefined();
    databaseProcesses.push(database!);
    return running;
  }

  async function signIn(on: Demo, email: string, password: string) {
    const response = await fetch(`${on.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    return { authorization: `Bearer ${(JSON.parse(text) as { token: string }).token}` };
  }

  async function call(on: Demo, headers: object, method: string, path: string, body?: unknown) {
    const response = await fetch(`${on.url}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, text: await response.text() };
  }

  /** A person the administrator adds: data written before the freeze. */
  async function addPerson(on: Demo, email: string) {
    const admin = await signIn(on, ADMIN.email, ADMIN.password);
    const created = await call(on, admin, 'POST', '/api/admin/users', {
      email,
      level: 1,
      password_setup: { method: 'password', password: 'kept across the freeze' },
    });
    expect(created.status, created.text).toBe(201);
  }

  /** Whether the server ended within the bound (it is asserted, not timed: the bound only stops a wait). */
  const endsWithin = (on: Demo, ms: number) =>
    Promise.race([
      on.exited.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
    ]);

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'guardian-demo-stop-'));
  });

  afterAll(() => {
    // Nothing is left behind: a stopped database process is woken to be killed.
    for (const pid of databaseProcesses)
      if (!isGone(pid) && commandLineOf(pid).includes('pglite-host')) {
        try {
          process.kill(pid, 'SIGCONT');
          process.kill(pid, 'SIGKILL');
        } catch {
          // It ended meanwhile.
        }
      }
    for (const { child } of started) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      child.stdout?.destroy();
      child.stderr?.destroy();
    }
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it(
    'a stop (SIGTERM) ends the frozen database process, and the next start is healthy with the data',
    async () => {
      demo = await startDemo();
      await addPerson(demo, 'before-the-stop@example.com');
      // A sync of the demo's 10,000 blocked addresses: the database process is frozen while it writes.
      const user = await signIn(demo, USER.email, USER.password);
      const lists = await call(demo, user, 'GET', '/api/cloudflare/banlists');
      const blocked = (JSON.parse(lists.text) as { list_id: string; list_name: string }[]).find(
        (list) => list.list_name === 'blocked_ips',
      );
      expect(blocked, lists.text).toBeDefined();
      const sync = await call(demo, user, 'POST', `/api/cloudflare/banlists/${blocked!.list_id}/sync`);
      expect([200, 202], sync.text).toContain(sync.status);
      const admin = await signIn(demo, ADMIN.email, ADMIN.password);
      const database = databaseProcessOf(demo.child.pid!)!;
      process.kill(database, 'SIGSTOP');
      // A request in flight, waiting on the frozen database, when the stop comes.
      const waiting = fetch(`${demo.url}/api/admin/users`, { headers: admin }).catch(() => undefined);

      // The job worker waits on the frozen database too, so the stop ends by the server's watchdog, and
      // the database process is killed as the server exits.
      demo.child.kill('SIGTERM');
      expect(await endsWithin(demo, STOP_TIMEOUT_MS), demo.output.join('')).toBe(true);
      await waiting;
      // Killed, it may stay a zombie a moment until its new parent reaps it: its files are closed.
      await vi.waitFor(() => expect(isGone(database)).toBe(true), { timeout: 10_000 });
      expect(demo.output.join('')).toMatch(/embedded database's process .*it was killed/);

      demo = await startDemo();
      await signIn(demo, ADMIN.email, ADMIN.password);
      await signIn(demo, 'before-the-stop@example.com', 'kept across the freeze');
    },
    2 * START_TIMEOUT_MS + STOP_TIMEOUT_MS,
  );

  it(
    'a start takes the folder over from the frozen database process of a killed (SIGKILL) demo, and says so',
    async () => {
      // The demo the test before left running, or a new one.
      if (!demo || demo.child.exitCode !== null || demo.child.signalCode !== null) demo = await startDemo();
      await addPerson(demo, 'before-the-kill@example.com');
      const database = databaseProcessOf(demo.child.pid!)!;
      process.kill(database, 'SIGSTOP');
      demo.child.kill('SIGKILL');
      await demo.exited;
      // Stopped, it never hears that its server is gone: it stays, holding the folder's lock.
      expect(isStopped(database)).toBe(true);
      expect(existsSync(join(folder, 'data', 'pglite.lock'))).toBe(true);

      demo = await startDemo();
      await vi.waitFor(() => expect(isGone(database)).toBe(true), { timeout: 10_000 });
      expect(demo.output.join('')).toMatch(
        new RegExp(
          `locked by process ${database}, which is not the database of a running server .*it was killed and its lock was taken over`,
        ),
      );
      await signIn(demo, 'before-the-kill@example.com', 'kept across the freeze');

      // A stop of a healthy demo is clean: it ends, and so does its database process.
      const healthy = databaseProcessOf(demo.child.pid!)!;
      demo.child.kill('SIGTERM');
      expect(await endsWithin(demo, STOP_TIMEOUT_MS), demo.output.join('')).toBe(true);
      expect(demo.child.exitCode, demo.output.join('')).toBe(0);
      await vi.waitFor(() => expect(isGone(healthy)).toBe(true), { timeout: 10_000 });
    },
    START_TIMEOUT_MS + STOP_TIMEOUT_MS,
  );
});
