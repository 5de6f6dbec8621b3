import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { lockDataDir } from './data-dir-lock';
import type { Db, Queryable } from './types';

const DATE_OID = 1082;

/**
 * PGlite lives in the server's process and its WebAssembly memory never shrinks: PostgreSQL's default
 * 128 MB of shared buffers (and 64 MB per index build) would stay in the server's memory for good.
 * The data files are read through the operating system's page cache anyway, as PostgreSQL expects.
 */
const MEMORY_SETTINGS = ['-c', 'shared_buffers=32MB', '-c', 'maintenance_work_mem=32MB'];

function queryable(target: PGlite | Transaction): Queryable {
  return {
    query: async <T>(sql: string, params: readonly unknown[] = []) =>
      (await target.query<T>(sql, [...params])).rows,
    exec: async (sql: string) => void (await target.exec(sql)),
  };
}

/** Embedded PostgreSQL (WebAssembly) in `folder`, or in memory when no folder is given (tests). */
export async function createPgliteDb(folder?: string): Promise<Db> {
  let unlock: (() => void) | undefined;
  if (folder) {
    mkdirSync(dirname(folder), { recursive: true, mode: 0o700 });
    unlock = lockDataDir(folder);
  }
  try {
    const pglite = await PGlite.create({
      dataDir: folder,
      startParams: [...PGlite.defaultStartParams, ...MEMORY_SETTINGS],
      extensions: { pg_trgm },
      // PGlite already returns int8 as number; dates as text match the PostgreSQL client.
      parsers: { [DATE_OID]: (text: string) => text },
    });
    const { query, exec } = queryable(pglite);
    return {
      kind: 'pglite',
      query,
      exec,
      transaction: (fn) => pglite.transaction((tx) => fn(queryable(tx))),
      async close() {
        await pglite.close();
        unlock?.();
      },
    };
  } catch (err) {
    unlock?.();
    throw err;
  }
}
