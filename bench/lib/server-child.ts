/**
 * The Guardian server as the benchmark runs it: a child process (so its memory and CPU are its own),
 * built from the server's own modules exactly as `runServer` builds it, with two additions for
 * measuring: every database round trip is counted (a proxy around the Db given to buildApp), and the
 * parent can create users and read the counters over the IPC channel.
 *
 * Started by bench/lib/stack.ts with `fork(..., { execArgv: ['--import', 'tsx'] })`; configured by
 * the environment like the real server (DATABASE_URL or a PGlite data folder, CLOUDFLARE_API_BASE_URL).
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { buildApp, createAppDeps } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import {
  createDb,
  runMigrations,
  type Db,
  type Queryable,
  type QueryOptions,
} from '../../apps/server/src/db';
import { MIGRATION_LOCK_ID } from '../../apps/server/src/db/migrate';
import { openSession } from '../../apps/server/src/modules/auth';
import { passwordStamp } from '../../apps/server/src/modules/users';
import { UsersRepository } from '../../apps/server/src/modules/users';
import { UsersService } from '../../apps/server/src/modules/users';
import type { ChildMessage, ParentMessage, QueryCounts } from './protocol';

/** Round trips since the last reset, by what they were for. */
const counts: QueryCounts = { total: 0, auth: 0, transactions: 0, bySql: {}, msBySql: {} };
/** The last parameters each statement ran with since the last reset, to EXPLAIN it on request. */
const recent = new Map<string, readonly unknown[]>();

/** Counts a statement; the answer, called when it settles, adds its time (ms, as the server waited). */
function count(sql: string, params: readonly unknown[] = []): () => void {
  counts.total++;
  recent.set(sql, params);
  // The auth guard's lookup of the session and its user (UsersRepository.findSession), once per session and recheck interval.
  if (/\bFROM users u\s+LEFT JOIN sessions\b/i.test(sql)) counts.auth++;
  const key = sql.replace(/\s+/g, ' ').trim().slice(0, 160);
  counts.bySql[key] = (counts.bySql[key] ?? 0) + 1;
  const started = performance.now();
  return () => {
    counts.msBySql[key] = (counts.msBySql[key] ?? 0) + performance.now() - started;
  };
}

function countingQueryable(target: Queryable): Queryable {
  return {
    query: <T>(sql: string, params?: readonly unknown[], options?: QueryOptions) => {
      const done = count(sql, params);
      return target.query<T>(sql, params, options).finally(done);
    },
    exec: (sql) => {
      const done = count(sql);
      return target.exec(sql).finally(done);
    },
    copyIn: (into, rows) => {
      const done = count(`COPY ${into}`);
      return target.copyIn(into, rows).finally(done);
    },
  };
}

/** The Db buildApp gets: the same database, every statement counted (BEGIN and COMMIT as one each). */
function countingDb(db: Db): Db {
  return {
    kind: db.kind,
    ...countingQueryable(db),
    transaction: (fn) => {
      counts.transactions++;
      counts.total += 2;
      return db.transaction((tx) => fn(countingQueryable(tx)));
    },
    close: () => db.close(),
  };
}

/**
 * The server's answer caches, which the benchmark turns off to measure reads with the database
 * answering every request: the ban-list items' pages and search counts (kept per list version), the
 * lists a read looked up, and the zones lists (kept per mirror version). They read the app's switch
 * (`AppDeps.answerCaches`, from GUARDIAN_ANSWER_CACHES) on every lookup.
 */
const CACHES = ['ban list items', 'looked-up lists', 'zones list'];

function send(message: ChildMessage): void {
  process.send?.(message);
}

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  // On PostgreSQL the benchmark works in its own schema, dropped at the end, like the test context.
  // BENCH_SCHEMA: a second server process on the schema another one created (and drops).
  const shared = config.databaseUrl ? process.env.BENCH_SCHEMA : undefined;
  if (shared !== undefined && !/^bench_[0-9a-f]{12}$/.test(shared))
    throw new Error(`BENCH_SCHEMA must be a benchmark's schema (bench_ and 12 hex digits), not ${shared}`);
  const schema = config.databaseUrl ? (shared ?? `bench_${randomBytes(6).toString('hex')}`) : undefined;
  const ownsSchema = schema !== undefined && shared === undefined;
  const db = await createDb(config, { schema });
  if (ownsSchema) {
    await db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
      await tx.exec(`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public; CREATE SCHEMA ${schema};`);
    });
  }
  await runMigrations(db);
  if (process.env.BENCH_PREPARE_ONLY) {
    // The embedded database's folder created and migrated, as by the first start of an installation.
    await db.close();
    process.exit(0);
  }
  const deps = createAppDeps(config, countingDb(db));
  const app = await buildApp(config, deps);
  await app.listen({ port: config.port, host: config.host });
  const users = new UsersService(new UsersRepository(db), config.passwordHashing);
  let userCounter = 0;

  const stop = async () => {
    await app.close();
    if (ownsSchema) await db.exec(`DROP SCHEMA ${schema} CASCADE`);
    await db.close();
  };

  process.on('message', (message: ParentMessage) => {
    void (async () => {
      try {
        switch (message.type) {
          case 'createUser': {
            userCounter++;
            const user = await users.create({
              email: `bench${userCounter}@example.com`,
              password: randomBytes(12).toString('base64url'),
              level: message.level ?? 1,
            });
            const repository = new UsersRepository(db);
            const { passwordHash } = (await repository.findByIdWithPasswordHash(user.id))!;
            send({
              type: 'reply',
              id: message.id,
              value: {
                id: user.id,
                email: user.email,
                token: await openSession(repository, user, passwordStamp(passwordHash), config),
              },
            });
            break;
          }
          case 'resetQueries':
            counts.total = counts.auth = counts.transactions = 0;
            counts.bySql = {};
            counts.msBySql = {};
            recent.clear();
            send({ type: 'reply', id: message.id, value: null });
            break;
          case 'queries':
            send({ type: 'reply', id: message.id, value: structuredClone(counts) });
            break;
          case 'memory': {
            // With BENCH_LIVE_HEAP=1 (node --expose-gc) the heap is collected first: what is live, not
            // what awaits collection. Diagnosis only: a collection every 250 ms changes the timings.
            const gc = (globalThis as { gc?: () => void }).gc;
            if (gc && process.env.BENCH_LIVE_HEAP) gc();
            send({ type: 'reply', id: message.id, value: process.memoryUsage() });
            break;
          }
          case 'routes':
            send({ type: 'reply', id: message.id, value: app.printRoutes({ commonPrefix: false }) });
            break;
          case 'sql': {
            // EXPLAIN ANALYZE and other diagnostics, straight to the database (not counted).
            const rows = await db.query(message.sql, message.params ?? []);
            send({ type: 'reply', id: message.id, value: rows });
            break;
          }
          case 'caches':
            deps.answerCaches.enabled = message.enabled;
            send({ type: 'reply', id: message.id, value: CACHES });
            break;
          case 'explain': {
            // EXPLAIN ANALYZE of the statements run since the last reset (not the auth lookup), with
            // the parameters they last ran with: why a read is slow, in the database's own words.
            const plans: { sql: string; plan: string }[] = [];
            for (const [sql, params] of recent) {
              // Reads only (EXPLAIN ANALYZE runs the statement): a SELECT, or a WITH that writes nothing
              // (the item pages by bucket and a search's page with its count start so).
              const read =
                /^\s*SELECT\b/i.test(sql) ||
                (/^\s*WITH\b/i.test(sql) && !/\b(INSERT|UPDATE|DELETE)\b/i.test(sql));
              if (!read || /\bFROM users\b/i.test(sql)) continue;
              if (message.match && !sql.includes(message.match)) continue;
              const rows = await db.query<Record<string, string>>(
                `EXPLAIN (ANALYZE, BUFFERS) ${sql}`,
                params,
              );
              plans.push({
                sql: sql.replace(/\s+/g, ' ').trim(),
                plan: rows.map((row) => Object.values(row)[0]).join('\n'),
              });
            }
            send({ type: 'reply', id: message.id, value: plans });
            break;
          }
          case 'stop':
            await stop();
            send({ type: 'reply', id: message.id, value: null });
            process.exit(0);
        }
      } catch (err) {
        send({
          type: 'reply',
          id: message.id,
          error: err instanceof Error ? (err.stack ?? err.message) : String(err),
        });
      }
    })();
  });

  // The benchmark is gone (killed, crashed): do not linger holding a port and a data folder.
  process.once('disconnect', () => void stop().finally(() => process.exit(0)));

  const port = (app.server.address() as AddressInfo).port;
  send({ type: 'ready', port, database: db.kind, schema: schema ?? null });
}

main().catch((err: unknown) => {
  send({ type: 'failed', error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exit(1);
});
