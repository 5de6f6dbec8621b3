import { join } from 'node:path';
import type { Config } from '../config';
import { createPgliteDb } from './pglite';
import { createPostgresDb } from './postgres';
import type { Db, DbLogger } from './types';

export type { Db, DbLogger, Queryable, QueryOptions } from './types';
export { PLANNED_ONCE } from './types';
export { DatabaseUnavailableError, isUniqueViolation } from './errors';
export { DataDirLockedError } from './data-dir-lock';
export { runMigrations } from './migrate';
export { runAsRead } from './reads';
export { copyRows, type CopyValue } from './copy-text';

export interface CreateDbOptions {
  logger?: DbLogger;
  /** PostgreSQL only: the schema to work in (the test context's isolation). */
  schema?: string;
}

/**
 * PostgreSQL when DATABASE_URL is set, else PGlite in `<dataDir>/pglite` (in memory under tests), in a
 * process of its own.
 */
export async function createDb(
  config: Pick<Config, 'mode' | 'dataDir' | 'databaseUrl'> &
    Partial<Pick<Config, 'databaseQueryTimeoutMs' | 'databaseReadTimeoutMs'>>,
  options: CreateDbOptions = {},
): Promise<Db> {
  const bounds = {
    queryTimeoutMs: config.databaseQueryTimeoutMs,
    readTimeoutMs: config.databaseReadTimeoutMs,
  };
  if (config.databaseUrl) return createPostgresDb(config.databaseUrl, { ...options, ...bounds });
  return createPgliteDb(config.mode === 'test' ? undefined : join(config.dataDir, 'pglite'), {
    ...options,
    ...bounds,
  });
}
