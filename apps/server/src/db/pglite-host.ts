/**
 * The process that hosts PGlite (started by pglite.ts). PGlite is PostgreSQL compiled to WebAssembly:
 * its memory never shrinks and its work is synchronous. In a process of its own it is to the server
 * what a PostgreSQL server is: its memory is not the server's, and its work does not hold up the
 * server's event loop. The server is its only client, through the IPC channel (pglite-protocol.ts).
 *
 * Usage: node pglite-host.js [folder]   (no folder: in memory, for tests)
 */
import { chmodSync, lstatSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PGlite, type PGliteOptions, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { lockDataDir, type TakenOver } from './data-dir-lock';
import { serializeError, type HostMessage, type HostRequest } from './pglite-protocol';
import { PreparedStatements } from './pglite-statements';

const DATE_OID = 1082;

/**
 * WebAssembly memory never shrinks: PostgreSQL's default 128 MB of shared buffers (and 64 MB per
 * index build) would stay in this process for good. The data files are read through the operating
 * system's page cache anyway, as PostgreSQL expects.
 */
const MEMORY_SETTINGS = ['-c', 'shared_buffers=32MB', '-c', 'maintenance_work_mem=32MB'];
/**
 * Queries run as named statements (pglite-statements.ts), planned for each run with its parameters'
 * values, as an unnamed statement is (and as node-postgres's are on PostgreSQL): a generic plan
 * could not use a LIKE prefix or prune a list's partition when it is made.
 */
const PLAN_SETTINGS = ['-c', 'plan_cache_mode=force_custom_plan'];

/** Thrown inside a transaction's callback to make PGlite roll it back. */
const ROLLBACK = Symbol('rollback');

interface OpenTransaction {
  tx: Transaction;
  /** Ends the transaction: true commits, false rolls back. */
  finish(commit: boolean): void;
  /** Settles when PGlite has committed (or rejects with the reason it could not). */
  ended: Promise<void>;
}

/**
 * A reply to a server that has just gone fails (EPIPE): with no callback that failure is an 'error' event
 * that ends this process before it closes the database. The 'disconnect' handler closes it instead.
 */
const send = (message: HostMessage) => process.send!(message, undefined, undefined, () => undefined);

/**
 * The database's files are the owner's alone (0600, folders 0700). PGlite sets the modes of the files
 * it unpacks for a new folder, and of a few it rewrites as it starts, to 0666 or 0644 itself, so the
 * umask covers only what it creates later: the folder is walked at every start and close as well,
 * which also mends a folder left open to everyone by an earlier version.
 */
function restrictToOwner(path: string): void {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (!stats || stats.isSymbolicLink()) return;
  const mode = stats.isDirectory() ? 0o700 : 0o600;
  if ((stats.mode & 0o777) !== mode) chmodSync(path, mode);
  if (stats.isDirectory()) for (const entry of readdirSync(path)) restrictToOwner(join(path, entry));
}

/**
 * Tests open hundreds of in-memory databases, and PostgreSQL's initdb is most of each one's start
 * (about 3 s of 4 on a quiet 2-core machine, 11 s of 14 on a busy one). With GUARDIAN_TEST_PGLITE_TEMPLATE
 * set (the server's vitest config sets it) the first in-memory database saves its new, empty cluster
 * there, named with PGlite's version, and every later one starts from that copy: the same cluster,
 * without initdb. A folder's database never uses it.
 */
function templateFile(): string | undefined {
  const base = process.env.GUARDIAN_TEST_PGLITE_TEMPLATE;
  if (!base) return undefined;
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const { version } = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return `${base}-${version}.tar`;
}

async function openInMemory(options: PGliteOptions): Promise<PGlite> {
  const template = templateFile();
  const saved =
    template && lstatSync(template, { throwIfNoEntry: false }) ? readFileSync(template) : undefined;
  if (saved) return PGlite.create({ ...options, loadDataDir: new Blob([saved]) });
  const pglite = await PGlite.create(options);
  if (template) {
    // Written aside and renamed: a database starting meanwhile reads the whole file or none.
    const partial = `${template}.${process.pid}`;
    writeFileSync(partial, new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer()));
    renameSync(partial, template);
  }
  return pglite;
}

async function open(
  folder: string | undefined,
): Promise<{ pglite: PGlite; unlock?: () => void; tookOver?: TakenOver }> {
  const { release: unlock, tookOver } = folder ? lockDataDir(folder) : {};
  try {
    if (folder) restrictToOwner(folder);
    const options: PGliteOptions = {
      startParams: [...PGlite.defaultStartParams, ...MEMORY_SETTINGS, ...PLAN_SETTINGS],
      extensions: { pg_trgm },
      // PGlite already returns int8 as number; dates as text match the PostgreSQL client.
      parsers: { [DATE_OID]: (text: string) => text },
    };
    const pglite = folder
      ? await PGlite.create({ ...options, dataDir: folder })
      : await openInMemory(options);
    if (folder) restrictToOwner(folder);
    return { pglite, unlock, tookOver };
  } catch (err) {
    unlock?.();
    throw err;
  }
}

async function serve(folder: string | undefined): Promise<void> {
  const { pglite, unlock, tookOver } = await open(folder);
  const statements = new PreparedStatements(pglite);
  const transactions = new Map<number, OpenTransaction>();
  let nextTransaction = 1;
  let closing: Promise<void> | undefined;

  const close = () =>
    (closing ??= (async () => {
      for (const open of transactions.values()) open.finish(false);
      await pglite.close();
      if (folder) restrictToOwner(folder);
      unlock?.();
    })());

  const target = (tx: number | undefined): PGlite | Transaction => {
    if (tx === undefined) return pglite;
    const open = transactions.get(tx);
    if (!open) throw new Error(`Transaction ${tx} is not open.`);
    return open.tx;
  };

  // PGlite runs one transaction at a time: a begin waits here until the one before has ended.
  const begin = () =>
    new Promise<number>((resolveBegin, rejectBegin) => {
      const id = nextTransaction++;
      let finish!: (commit: boolean) => void;
      const decided = new Promise<boolean>((resolve) => (finish = resolve));
      const ended = pglite
        .transaction(async (tx) => {
          transactions.set(id, { tx, finish, ended });
          resolveBegin(id);
          if (!(await decided)) throw ROLLBACK;
        })
        .catch((err: unknown) => {
          if (err !== ROLLBACK) throw err;
        })
        .finally(() => transactions.delete(id));
      // A BEGIN that failed never reached the callback.
      ended.catch(rejectBegin);
    });

  const end = async (tx: number, commit: boolean) => {
    const open = transactions.get(tx);
    if (!open) throw new Error(`Transaction ${tx} is not open.`);
    open.finish(commit);
    await open.ended;
  };

  const handle = async (request: HostRequest): Promise<unknown> => {
    switch (request.op) {
      case 'query':
        // As PGlite's tx.query: a transaction being committed or rolled back takes no more queries.
        if (request.tx !== undefined && (target(request.tx) as Transaction).closed)
          throw new Error('Transaction is closed');
        return statements.query(request.sql, request.params, request.tx !== undefined, request.reusePlan);
      case 'exec':
        try {
          await target(request.tx).exec(request.sql);
        } finally {
          // A script (migrations, partitions) may change the columns cached statements return.
          statements.clear();
        }
        return undefined;
      case 'copyIn':
        // PGlite reads COPY's input from a Blob it names /dev/blob.
        await target(request.tx).query(`COPY ${request.target} FROM '/dev/blob'`, [], {
          blob: new Blob([request.rows]),
        });
        return undefined;
      case 'begin':
        return begin();
      case 'commit':
      case 'rollback':
        return end(request.tx, request.op === 'commit');
      case 'close':
        return close();
    }
  };

  process.on('message', (request: HostRequest) => {
    handle(request).then(
      (value) => send({ type: 'reply', id: request.id, value }),
      (err: unknown) => send({ type: 'reply', id: request.id, error: serializeError(err) }),
    );
  });
  // The server is gone (it exited, or crashed): close the database cleanly, then go too.
  process.once('disconnect', () => void close().finally(() => process.exit(0)));
  send({ type: 'ready', tookOver });
}

// A Ctrl-C in a terminal reaches the whole process group, and a service manager's stop may signal every
// process of the service: the server decides when the database closes (it closes it after its last
// request), so this process waits for the server's close or for the server to be gone.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);

// Before any file is created: see restrictToOwner.
process.umask(0o077);
serve(process.argv[2] || undefined).catch((err: unknown) => {
  send({ type: 'failed', error: serializeError(err) });
  process.disconnect?.();
  process.exitCode = 1;
});
