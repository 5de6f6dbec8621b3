/**
 * What the benchmark runs against: the Cloudflare sandbox in this process (seeded through its control
 * API, every call timed), the Guardian server as a child process on PGlite in a temporary folder or on
 * PostgreSQL, and the bare baseline as another child process.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createSandbox, type Sandbox } from '@guardian/sandbox';
import type { BareAnswer, ChildMessage, ParentMessage, QueryCounts } from './protocol';

/** A message to the child without its id (Omit distributed over the union). */
type ParentRequest = ParentMessage extends infer M ? (M extends unknown ? Omit<M, 'id'> : never) : never;

export const ROOT = join(import.meta.dirname, '..', '..');

/** One call the sandbox answered: when its request arrived and how long the sandbox took to answer. */
export interface TimedCall {
  method: string;
  url: string;
  start: number;
  durationMs: number;
  /** The HTTP status the sandbox answered (429: a limit Cloudflare would enforce was overrun). */
  status: number;
}

export interface TimedSandbox {
  sandbox: Sandbox;
  baseUrl: string;
  /** Every call since the last `clear()`, in arrival order. */
  calls: TimedCall[];
  clear(): void;
}

/**
 * The sandbox on a port, with a listener placed before Fastify's that times each request from its
 * arrival (headers read) to the end of its answer: the sandbox's own time for that Cloudflare call.
 */
export async function startSandbox(): Promise<TimedSandbox> {
  const sandbox = await createSandbox({ rateLimit: false, callLogLimit: 500_000 });
  const baseUrl = await sandbox.listen(0, '127.0.0.1');
  const timed: TimedSandbox = {
    sandbox,
    baseUrl,
    calls: [],
    clear() {
      timed.calls = [];
    },
  };
  sandbox.app.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const start = performance.now();
    res.once('finish', () => {
      timed.calls.push({
        method: req.method ?? '',
        url: req.url ?? '',
        start,
        durationMs: performance.now() - start,
        status: res.statusCode,
      });
    });
  });
  return timed;
}

export interface ServerChild {
  port: number;
  origin: string;
  pid: number;
  database: 'pglite' | 'postgres';
  schema: string | null;
  /**
   * The settings it was started with (its secrets included): a second server on the same PostgreSQL
   * schema (`BENCH_SCHEMA`) needs the same session secret and encryption key to serve the same people.
   */
  env: Readonly<Record<string, string>>;
  createUser(level?: number): Promise<{ id: number; email: string; token: string }>;
  resetQueries(): Promise<void>;
  queries(): Promise<QueryCounts>;
  routes(): Promise<string>;
  sql<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** EXPLAIN ANALYZE of the SELECTs run since the last `resetQueries` (auth lookup excluded). */
  explain(match?: string): Promise<{ sql: string; plan: string }[]>;
  /** Turns the server's answer caches off or on; answers the names of those it has. */
  caches(enabled: boolean): Promise<string[]>;
  /** process.memoryUsage() of the server: where its resident memory is (V8 heap, external, buffers). */
  memory(): Promise<NodeJS.MemoryUsage>;
  /** Resident set size now, from /proc (bytes). */
  rss(): number;
  /** The RSS of the server's child processes (the embedded database's host); null when it has none. */
  databaseRss(): number | null;
  /**
   * CPU time (user and system, ms, in 10 ms ticks) the server and its child processes (the embedded
   * database's host; null when it has none) have used so far, from /proc: a work's cost apart from how
   * long it waited for a core.
   */
  cpuMs(): { server: number; database: number | null };
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** The bundled bench/lib/server-child.ts (lib/build-children.ts). */
  bundle: string;
  sandboxUrl: string;
  databaseUrl: string | undefined;
  /** The built web app the server serves. */
  webDist: string;
  /** Settings over the benchmark's own; undefined removes one (the server's default applies). */
  env?: Record<string, string | undefined>;
}

function readRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return kb ? Number(kb) * 1024 : 0;
}

/** User and system CPU time of `pid` (ms), from /proc/<pid>/stat's utime and stime (ticks of 10 ms). */
function readCpuMs(pid: number): number {
  // The fields after the command's closing parenthesis: the state is field 3, utime 14, stime 15.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** `read` summed over `pid`'s child processes; null when it has none. */
function ofChildren(pid: number, read: (child: number) => number): number | null {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean);
  if (children.length === 0) return null;
  return children.reduce((sum, child) => {
    try {
      return sum + read(Number(child));
    } catch {
      return sum; // It ended between the two reads.
    }
  }, 0);
}

/**
 * PGlite creates a new data folder by running initdb inside its host process, whose WebAssembly memory
 * stays in that process's RSS after it is collected. That happens once per installation; the database
 * measured is one started on its existing folder, as on every later start: a first server creates and
 * migrates the folder and exits.
 */
async function prepareDataDir(bundle: string, env: Record<string, string>): Promise<void> {
  const child = fork(bundle, [], { cwd: ROOT, env: { ...env, BENCH_PREPARE_ONLY: '1' }, stdio: 'inherit' });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`Creating the embedded database's folder failed (exit code ${code}).`);
}

/** Starts Guardian as a child process; rejects with its error if it cannot start within two minutes. */
export async function startServer(options: ServerOptions): Promise<ServerChild & { dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'guardian-bench-'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'production',
    GUARDIAN_MODE: 'production',
    GUARDIAN_SECRET: randomBytes(48).toString('base64url'),
    GUARDIAN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    GUARDIAN_DATA_DIR: dataDir,
    GUARDIAN_WEB_DIST_DIR: options.webDist,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    CLOUDFLARE_API_BASE_URL: options.sandboxUrl,
    // Far above anything the benchmark sends: the console's own throttle must not distort the figures.
    CLOUDFLARE_RATE_LIMIT_REQUESTS: '10000000',
    CLOUDFLARE_MAX_RETRIES: '0',
    CLOUDFLARE_TIMEOUT_MS: '120000',
    // 50 connections of one person: the per-person limits (600 a minute, 2 costly requests at once),
    // which no person reaches, would only measure themselves.
    GUARDIAN_RATE_LIMIT_PER_MINUTE: '100000000',
    GUARDIAN_RATE_LIMIT_CONCURRENT: '1000',
  };
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  if (process.env.BENCH_LIVE_HEAP) env.BENCH_LIVE_HEAP = process.env.BENCH_LIVE_HEAP;
  if (!options.databaseUrl) await prepareDataDir(options.bundle, env);
  const child = fork(options.bundle, [], {
    cwd: ROOT,
    env,
    // BENCH_CPU_PROF=<folder>: a V8 CPU profile of the server (open it in Chrome's DevTools).
    execArgv: [
      ...serverNodeFlags(),
      '--enable-source-maps',
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      ...(process.env.BENCH_LIVE_HEAP ? ['--expose-gc'] : []),
      // BENCH_SERVER_NODE_ARGS="--max-old-space-size=128": what-if flags for the server's node.
      ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });

  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
  let nextId = 1;
  let exited = false;
  const ready = new Promise<Extract<ChildMessage, { type: 'ready' }>>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('The Guardian server did not start within 120 s.')),
      120_000,
    );
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve(message);
      } else if (message.type === 'failed') {
        clearTimeout(timer);
        reject(new Error(`The Guardian server failed to start:\n${message.error}`));
      } else {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) waiter?.reject(new Error(message.error));
        else waiter?.resolve(message.value);
      }
    });
    child.once('exit', (code, signal) => {
      exited = true;
      clearTimeout(timer);
      const err = new Error(`The Guardian server exited (code ${code}, signal ${signal}).`);
      reject(err);
      for (const waiter of pending.values()) waiter.reject(err);
      pending.clear();
    });
  });

  const call = <T>(message: ParentRequest): Promise<T> => {
    if (exited) return Promise.reject(new Error('The Guardian server is not running.'));
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ ...message, id } as ParentMessage);
    });
  };

  let started: Extract<ChildMessage, { type: 'ready' }>;
  try {
    started = await ready;
  } catch (err) {
    if (!exited) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }

  return {
    port: started.port,
    origin: `http://127.0.0.1:${started.port}`,
    pid: child.pid!,
    database: started.database,
    schema: started.schema,
    env,
    dataDir,
    createUser: (level) => call({ type: 'createUser', level }),
    resetQueries: () => call({ type: 'resetQueries' }),
    queries: () => call({ type: 'queries' }),
    routes: () => call({ type: 'routes' }),
    memory: () => call({ type: 'memory' }),
    sql: (sql, params) => call({ type: 'sql', sql, params }),
    explain: (match) => call({ type: 'explain', match }),
    caches: (enabled) => call({ type: 'caches', enabled }),
    rss: () => readRss(child.pid!),
    databaseRss: () => ofChildren(child.pid!, readRss),
    cpuMs: () => ({ server: readCpuMs(child.pid!), database: ofChildren(child.pid!, readCpuMs) }),
    async stop() {
      if (!exited) {
        // It closes the app and the database and exits; a server that hangs is killed after 15 s.
        const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        const timeout = new Promise<void>((resolve) => setTimeout(resolve, 15_000).unref());
        call({ type: 'stop' }).catch(() => undefined);
        await Promise.race([gone, timeout]);
        if (!exited) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface BareServer {
  origin: string;
  stop(): void;
}

/**
 * The node flags `npm start` runs the server with (the heap limit), read from its script so the
 * benchmark measures the server as it is deployed.
 */
function serverNodeFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  return scripts.start!.split(/\s+/).filter((word) => word.startsWith('--'));
}

/** The baseline child: answers exactly `routes` (URL with query -> body and headers) from memory. */
export async function startBare(bundle: string, routes: Record<string, BareAnswer>): Promise<BareServer> {
  const child: ChildProcess = fork(bundle, [], {
    cwd: ROOT,
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`The baseline server exited (code ${code}).`)));
    child.send({ routes });
  });
  return { origin: `http://127.0.0.1:${port}`, stop: () => void child.kill('SIGTERM') };
}
