import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DatabaseUnavailableError } from './errors';
import { deserializeError, type HostCall, type HostMessage, type HostRequest } from './pglite-protocol';
import type { Db, DbLogger, Queryable, QueryOptions } from './types';

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

/** One running host process: requests out, replies matched back by id. */
class HostProcess {
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();
  private nextId = 1;
  private exitError: Error | undefined;
  private readonly exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    onExit: (host: HostProcess) => void,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    // A failed send is reported to its call (see `call`), a death by the exit below: nothing is left unheard.
    child.on('error', () => undefined);
    child.on('message', (message: HostMessage) => {
      if (message.type !== 'reply') return;
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) waiter?.reject(deserializeError(message.error));
      else waiter?.resolve(message.value);
    });
    child.once('exit', (code, signal) => {
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

  /** Starts a host on `folder` (in memory without one); rejects with the reason it could not open it. */
  static start(folder: string | undefined, onExit: (host: HostProcess) => void): Promise<HostProcess> {
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
        if (message.type === 'ready') resolve(new HostProcess(child, onExit));
        else reject(deserializeError(message.error));
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

  call<T>(request: HostCall): Promise<T> {
    if (this.exitError) return Promise.reject(this.exitError);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      // The process may have died a moment ago, its exit not yet reported: then the send fails here.
      this.child.send({ ...request, id } as HostRequest, (err) => {
        if (!err || !this.pending.delete(id)) return;
        reject(new DatabaseUnavailableError(err));
      });
    });
  }

  /** Closes the database cleanly and waits for the process to end. */
  async stop(): Promise<void> {
    if (this.alive) {
      await this.call({ op: 'close' });
      this.child.disconnect();
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
  options: { logger?: DbLogger } = {},
): Promise<PgliteDb> {
  if (folder) mkdirSync(dirname(folder), { recursive: true, mode: 0o700 });
  let closed = false;
  const onExit = (host: HostProcess) => {
    if (!closed)
      options.logger?.warn({ pid: host.pid }, "The embedded database's process ended; it will be restarted.");
  };
  let current = await HostProcess.start(folder, onExit);
  let restarting: Promise<HostProcess> | undefined;

  const host = async (): Promise<HostProcess> => {
    if (current.alive) return current;
    if (closed) throw new Error('The database is closed.');
    restarting ??= HostProcess.start(folder, onExit)
      .then((started) => (current = started))
      .catch((err: unknown) => {
        throw new DatabaseUnavailableError(err);
      })
      .finally(() => (restarting = undefined));
    return restarting;
  };

  // Inside a transaction every query goes to the process that began it: a restarted one never saw it.
  const queryable = (target: () => Promise<HostProcess>, tx?: number): Queryable => ({
    query: async <T>(sql: string, params: readonly unknown[] = [], options: QueryOptions = {}) =>
      (await target()).call<T[]>({
        op: 'query',
        sql,
        params: [...params],
        tx,
        ...(options.reusePlan ? { reusePlan: true } : {}),
      }),
    exec: async (sql: string) => void (await (await target()).call({ op: 'exec', sql, tx })),
    copyIn: async (into: string, rows: string) =>
      void (await (await target()).call({ op: 'copyIn', target: into, rows, tx })),
  });
  const { query, exec, copyIn } = queryable(host);

  return {
    kind: 'pglite',
    query,
    exec,
    copyIn,
    async transaction(fn) {
      const owner = await host();
      const tx = await owner.call<number>({ op: 'begin' });
      let result;
      try {
        result = await fn(queryable(async () => owner, tx));
      } catch (err) {
        await owner.call({ op: 'rollback', tx }).catch(() => undefined);
        throw err;
      }
      await owner.call({ op: 'commit', tx });
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
