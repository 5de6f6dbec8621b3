import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DatabaseUnavailableError, isConnectionError, isStatementTimeout } from './errors';
import { isRead } from './reads';
import type { Db, DbLogger, Queryable, QueryOptions } from './types';

const INT8_OID = 20;
const DATE_OID = 1082;

function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value))
    throw new RangeError(`int8 value ${text} does not fit a JavaScript number`);
  return value;
}

// The same row types as PGlite's, so code and tests behave alike on both databases.
const typeParsers: pg.CustomTypesConfig = {
  getTypeParser: (oid, format) => {
    if (oid === INT8_OID) return parseInt8;
    if (oid === DATE_OID) return (text: string) => text;
    return pg.types.getTypeParser(oid, format);
  },
};

/**
 * Turns a lost connection or a read past its bound into DatabaseUnavailableError (a 503) and leaves SQL
 * errors as they are.
 */
async function guard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw isConnectionError(err) || isStatementTimeout(err) ? new DatabaseUnavailableError(err) : err;
  }
}

/** COPY ... FROM STDIN on one connection: node-postgres streams it through pg-copy-streams. */
async function copyThrough(client: pg.PoolClient, target: string, rows: string): Promise<void> {
  await pipeline([rows], client.query(copyFrom(`COPY ${target} FROM STDIN`)));
}

/**
 * A statement whose plan may be reused, or a read every page asks for (`prepared`: the items' pages and
 * searches, the list they are read from; bench: 25-40% more cold requests a second at 50 connections),
 * runs as a named prepared statement (node-postgres prepares it
 * once per connection, by its name: the SQL's digest), which PostgreSQL parses once and, after five
 * runs, plans once when a generic plan is as good (plan_cache_mode auto). Others are unnamed: parsed
 * and planned with their values on every run.
 */
const statementName = (sql: string) => `guardian_${createHash('sha1').update(sql).digest('hex')}`;

function queryable(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    query: <T>(sql: string, params: readonly unknown[] = [], options: QueryOptions = {}) =>
      guard(async () => {
        const values = [...params];
        const result =
          options.reusePlan || options.prepared
            ? await client.query({ name: statementName(sql), text: sql, values })
            : await client.query(sql, values);
        return result.rows as T[];
      }),
    exec: (sql: string) => guard(async () => void (await client.query(sql))),
    copyIn: (target: string, rows: string) =>
      guard(async () => {
        if (!(client instanceof pg.Pool)) return copyThrough(client, target, rows);
        const connection = await client.connect();
        let broken: Error | undefined;
        try {
          await copyThrough(connection, target, rows);
        } catch (err) {
          // A connection lost midway is destroyed rather than handed back (an SQL error leaves it usable).
          if (isConnectionError(err)) broken = err as Error;
          throw err;
        } finally {
          connection.release(broken);
        }
      }),
  };
}

export interface PostgresOptions {
  /** Schema to create and find tables in before `public` (tests isolate themselves this way). */
  schema?: string;
  logger?: DbLogger;
  /** A query unanswered this long fails as a lost connection, and the connection is dropped. */
  queryTimeoutMs?: number;
  /** A read's statement (see reads.ts) is cancelled by PostgreSQL past this. */
  readTimeoutMs?: number;
}

/** How much longer than a read's statement bound its connection may stay silent before it is dropped. */
const READ_SILENCE_GRACE_MS = 1_000;

/**
 * Pools that outlive PostgreSQL restarts: a broken idle connection is dropped and replaced, and while
 * the server is away queries fail fast with DatabaseUnavailableError instead of crashing the process.
 * Reads (reads.ts) have a pool of their own whose connections carry the reads' `statement_timeout`:
 * PostgreSQL itself cancels a read held up (by a lock, say) past its bound, and the connection stays.
 */
export function createPostgresDb(connectionString: string, options: PostgresOptions = {}): Db {
  const openPool = (queryTimeoutMs: number | undefined, statementTimeoutMs?: number) =>
    new pg.Pool({
      connectionString,
      max: 10,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      keepAlive: true,
      query_timeout: queryTimeoutMs,
      statement_timeout: statementTimeoutMs,
      application_name: 'guardian',
      options: options.schema ? `-c search_path=${options.schema},public` : undefined,
      types: typeParsers,
    });
  const { readTimeoutMs } = options;
  const main = openPool(options.queryTimeoutMs);
  const reads = readTimeoutMs ? openPool(readTimeoutMs + READ_SILENCE_GRACE_MS, readTimeoutMs) : main;
  const pools = [...new Set([main, reads])];
  const poolNow = () => (isRead() ? reads : main);
  const reportLostConnection = (err: Error) =>
    options.logger?.warn({ err }, 'A database connection was lost; the pool will open a new one.');
  for (const pool of pools) pool.on('error', reportLostConnection);
  const mainQueries = queryable(main);
  const readQueries = reads === main ? mainQueries : queryable(reads);
  const queries = () => (isRead() ? readQueries : mainQueries);

  return {
    kind: 'postgres',
    query: <T>(sql: string, params?: readonly unknown[], queryOptions?: QueryOptions) =>
      queries().query<T>(sql, params, queryOptions),
    exec: (sql) => queries().exec(sql),
    copyIn: (target, rows) => queries().copyIn(target, rows),
    async transaction(fn) {
      const pool = poolNow();
      const client = await guard(() => pool.connect());
      // A checked-out client has no pool listener: without ours a dropped connection would crash the process.
      client.on('error', reportLostConnection);
      let broken: Error | undefined;
      try {
        await guard(() => client.query('BEGIN'));
        const result = await fn(queryable(client));
        await guard(() => client.query('COMMIT'));
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
        throw err;
      } finally {
        client.off('error', reportLostConnection);
        // A client whose ROLLBACK failed is unusable: destroy it rather than return it to the pool.
        client.release(broken);
      }
    },
    close: async () => void (await Promise.all(pools.map((pool) => pool.end()))),
  };
}
