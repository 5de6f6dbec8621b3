import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DatabaseUnavailableError } from './errors';
import {
  deserializeError,
  type HostCall,
  type HostMessage,
  type HostRequest,
  type TakenOver,
} from './pglite-protocol';
import { boundOf, type QueryBounds } from './reads';
import type { Db, DbLogger, Queryable, QueryOptions } from './types';

/**
 * How long a close may take before the host is killed: a host stopped (SIGSTOP) or stuck in a long
 * statement would otherwise keep the server's stop waiting, and the folder's lock held, for good.
 */
const CLOSE_TIMEOUT_MS = 5_000;

/**
 * pglite-host.ts beside this module: in the build the server's bundles and the host's sit side by side
 * in dist/; from the TypeScript source (tests) the host runs through tsx.
 */
function hostEntry(): { file: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  const extension = extname(here);
  const file = fileURLToPath(new URL(`./pglite-host${extension}`, import.meta.url));
  if (extension !== '.ts') return { file, execArgv: [] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { file, execArgv: ['--import', tsx] };
}

/**
 * A server that exits without closing its database (its shutdown watchdog, a crash) takes the host
 * with it, and says so: a host left stopped or stuck would hold the folder's lock. (A server killed
 * with SIGKILL cannot: the next start takes the lock over, see data-dir-lock.ts.)
 */
const liveHosts = new Map<ChildProcess, DbLogger | undefined>();
process.once('exit', () => {
  for (const [child, logger] of liveHosts) {
    child.kill('SIGKILL');
    logger?.warn(
      { pid: child.pid },
      "The embedded database's process was still open as the server exited; it was killed (committed data is kept).",
    );
  }
});

/** One running host process: requests out, replies matched back by id. */
class HostProcess {
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();
  /** Calls answered by their time-out: a transaction begun after its caller gave up is rolled back. */
  private readonly abandoned = new Map<number, HostCall['op']>();
  private nextId = 1;
  private exitError: Error | undefined;
  private readonly exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly logger: DbLogger | undefined,
    onExit: (host: HostProcess) => void,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    // A failed send is reported to its call (see `call`), a death by the exit below: nothing is left unheard.
    child.on('error', () => undefined);
    child.on('message', (message: HostMessage) => {
      if (message.type !== 'reply') return;
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      const late = this.abandoned.get(message.id);
      this.abandoned.delete(message.id);
      if (late === 'begin' && !message.error) void this.call({ op: 'rollback', tx: message.value as number });
      if (message.error) waiter?.reject(deserializeError(message.error));
      else waiter?.resolve(message.value);
    });
    liveHosts.set(child, logger);
    child.once('exit', (code, signal) => {
      liveHosts.delete(child);
      this.exitError = new DatabaseUnavailableError(
        new Error(`The embedded database's process exited (code ${code}, signal ${signal}).`),
      );
      for (const waiter of this.pending.values()) waiter.reject(this.exitError);
      this.pending.clear();
      onExit(this);
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return this.exitError === undefined;
  }

  /**
   * Starts a host on `folder` (in memory without one); rejects with the reason it could not open it.
   * `onTakeOver` hears of a lock taken over from a host whose server is gone.
   */
  static start(
    folder: string | undefined,
    logger: DbLogger | undefined,
    onExit: (host: HostProcess) => void,
    onTakeOver: (previous: TakenOver) => void,
  ): Promise<HostProcess> {
    const { file, execArgv } = hostEntry();
    const child = fork(file, folder ? [folder] : [], {
      execArgv,
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Promise((resolve, reject) => {
      const onStartMessage = (message: HostMessage) => {
        if (message.type === 'reply') return;
        child.off('message', onStartMessage);
        child.off('exit', onEarlyExit);
        if (message.type === 'ready') {
          if (message.tookOver) onTakeOver(message.tookOver);
          resolve(new HostProcess(child, logger, onExit));
        } else reject(deserializeError(message.error));
      };
      const onEarlyExit = (code: number | null, signal: string | null) =>
        reject(
          new Error(`The embedded database's process exited as it started (code ${code}, signal ${signal}).`),
        );
      child.on('message', onStartMessage);
      child.once('exit', onEarlyExit);
      child.once('error', reject);
    });
  }

  /**
   * Sends a request; without an answer within `timeoutMs` the call fails as an unavailable database
   * (the host may be stopped, or busy with a long statement that every call waits behind).
   */
  call<T>(request: HostCall, timeoutMs?: number): Promise<T> {
    if (this.exitError) return Promise.reject(this.exitError);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              if (!this.pending.delete(id)) return;
              this.abandoned.set(id, request.op);
              reject(
                new DatabaseUnavailableError(
                  new Error(`The embedded database did not answer within ${timeoutMs / 1000} s.`),
                ),
              );
            }, timeoutMs);
      const settle =
        <V>(settleWith: (value: V) => void) =>
        (value: V) => {
          clearTimeout(timer);
          settleWith(value);
        };
      this.pending.set(id, { resolve: settle(resolve as (value: unknown) => void), reject: settle(reject) });
      // The process may have died a moment ago, its exit not yet reported: then the send fails here.
      this.child.send({ ...request, id } as HostRequest, (err) => {
        if (!err || !this.pending.delete(id)) return;
        clearTimeout(timer);
        reject(new DatabaseUnavailableError(err));
      });
    });
  }

  /** Closes the database cleanly and waits for the process to end; kills it past CLOSE_TIMEOUT_MS. */
  async stop(): Promise<void> {
    if (this.alive) {
      try {
        await this.call({ op: 'close' }, CLOSE_TIMEOUT_MS);
        this.child.disconnect();
      } catch (err) {
        if (!this.alive) return;
        this.logger?.warn(
          { err, pid: this.pid },
          "The embedded database's process did not close in time; it was killed (committed data is kept).",
        );
        this.child.kill('SIGKILL');
      }
    }
    await this.exited;
  }
}

export interface PgliteDb extends Db {
  /** The pid of the process hosting the database now (a new one after a restart). */
  hostPid(): number | undefined;
}

/**
 * Embedded PostgreSQL (WebAssembly) in `folder`, or in memory when no folder is given (tests), hosted by a
 * process of its own (pglite-host.ts). If that process dies (out of memory, say) the queries it had fail
 * with DatabaseUnavailableError (a 503) and the next query starts a new one on the same folder.
 */
export async function createPgliteDb(
  folder?: string,
  options: { logger?: DbLogger } & QueryBounds = {},
): Promise<PgliteDb> {
  if (folder) mkdirSync(dirname(folder), { recursive: true, mode: 0o700 });
  let closed = false;
  const onExit = (host: HostProcess) => {
    if (!closed)
      options.logger?.warn({ pid: host.pid }, "The embedded database's process ended; it will be restarted.");
  };
  const onTakeOver = (previous: TakenOver) =>
    options.logger?.warn(
      { folder, previous },
      `The embedded database's folder was locked by process ${previous.pid}, which is not the database of a ` +
        `running server (${previous.server}); ${previous.killed ? 'it was killed and ' : ''}its lock was taken over.`,
    );
  const start = () => HostProcess.start(folder, options.logger, onExit, onTakeOver);
  let current = await start();
  let restarting: Promise<HostProcess> | undefined;

  const host = async (): Promise<HostProcess> => {
    if (current.alive) return current;
    if (closed) throw new Error('The database is closed.');
    restarting ??= start()
      .then((started) => (current = started))
      .catch((err: unknown) => {
        throw new DatabaseUnavailableError(err);
      })
      .finally(() => (restarting = undefined));
    return restarting;
  };

  // Each call waits at most its bound (a read's, or any query's), in line behind others included.
  const call = <T>(target: HostProcess, request: HostCall) => target.call<T>(request, boundOf(options));
  // Inside a transaction every query goes to the process that began it: a restarted one never saw it.
  const queryable = (target: () => Promise<HostProcess>, tx?: number): Queryable => ({
    query: async <T>(sql: string, params: readonly unknown[] = [], queryOptions: QueryOptions = {}) =>
      call<T[]>(await target(), {
        op: 'query',
        sql,
        params: [...params],
        tx,
        ...(queryOptions.reusePlan ? { reusePlan: true } : {}),
      }),
    exec: async (sql: string) => void (await call(await target(), { op: 'exec', sql, tx })),
    copyIn: async (into: string, rows: string) =>
      void (await call(await target(), { op: 'copyIn', target: into, rows, tx })),
  });
  const { query, exec, copyIn } = queryable(host);

  return {
    kind: 'pglite',
    query,
    exec,
    copyIn,
    async transaction(fn) {
      const owner = await host();
      const tx = await call<number>(owner, { op: 'begin' });
      let result;
      try {
        result = await fn(queryable(async () => owner, tx));
      } catch (err) {
        await call(owner, { op: 'rollback', tx }).catch(() => undefined);
        throw err;
      }
      await call(owner, { op: 'commit', tx });
      return result;
    },
    hostPid: () => current.pid,
    async close() {
      closed = true;
      await restarting?.catch(() => undefined);
      await current.stop();
    },
  };
}
