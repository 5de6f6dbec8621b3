import { join } from 'node:path';
import { createPgliteDb } from './pglite';
import { createPostgresDb } from './postgres';
import type { Db, DbLogger } from './types';

export type { Db, DbLogger, Queryable, QueryOptions } from './types';
export { PLANNED_ONCE, PREPARED } from './types';
export { DatabaseUnavailableError, isUniqueViolation } from './errors';
export { DataDirLockedError } from './data-dir-lock';
export { runMigrations } from './migrate';
export { runAsRead } from './reads';
export { copyRows, type CopyValue } from './copy-text';
export { likeLiteral } from './like';
export { analyzeAfterWriting } from './statistics';

/** What the database needs of the server's configuration (config.ts's Config is one). */
export interface DbConfig {
  /** 'test' keeps PGlite in memory. */
  mode: string;
  dataDir: string;
  databaseUrl?: string;
  databaseQueryTimeoutMs?: number;
  databaseReadTimeoutMs?: number;
}

export interface CreateDbOptions {
  logger?: DbLogger;
  /** PostgreSQL only: the schema to work in (the test context's isolation). */
  schema?: string;
}

/**
 * PostgreSQL when DATABASE_URL is set, else PGlite in `<dataDir>/pglite` (in memory under tests), in a
 * process of its own.
 */
export async function createDb(config: DbConfig, options: CreateDbOptions = {}): Promise<Db> {
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
