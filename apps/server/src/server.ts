import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import { buildApp, createAppDeps, type AppDeps } from './app';
import type { Config } from './config';
import { createDb, DatabaseUnavailableError, runMigrations, type Db } from './db';

const DATABASE_WAIT_ATTEMPTS = 15;
const DATABASE_WAIT_MS = 2_000;
const SHUTDOWN_TIMEOUT_MS = 15_000;

export interface RunningServer {
  app: FastifyInstance;
  db: Db;
  logger: Logger;
  deps: AppDeps;
}

/** Migrates, waiting a little for PostgreSQL when it starts alongside (e.g. in docker compose). */
async function migrate(db: Db, logger: Logger): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      const applied = await runMigrations(db);
      if (applied.length > 0) logger.info({ applied }, 'Applied database migrations');
      return;
    } catch (err) {
      if (!(err instanceof DatabaseUnavailableError) || attempt === DATABASE_WAIT_ATTEMPTS) throw err;
      logger.warn({ err: err.cause }, `The database is not reachable yet; retrying in ${DATABASE_WAIT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, DATABASE_WAIT_MS));
    }
  }
}

/**
 * Opens the database, migrates, builds the app and listens; on SIGTERM/SIGINT stops accepting, lets
 * requests in flight finish, then runs `onStop` (e.g. the demo's sandbox) and closes the database.
 */
export async function runServer(config: Config, options: { onStop?: () => Promise<void> } = {}): Promise<RunningServer> {
  const logger = pino({
    level: config.logLevel,
    // Bearer tokens and Cloudflare API tokens are secrets: never in a log line.
    redact: ['req.headers.authorization', '*.token', '*.apiToken'],
  });
  const db = await createDb(config, { logger });
  await migrate(db, logger);
  const deps = createAppDeps(config, db);
  const app = await buildApp(config, { ...deps, logger });

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'Shutting down: finishing requests in flight');
    setTimeout(() => {
      logger.error('Shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    // Stops accepting connections and waits for requests in flight; then nothing uses the database.
    await app.close();
    await options.onStop?.();
    await db.close();
    logger.info('Stopped');
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);

  await app.listen({ port: config.port, host: config.host });
  logger.info({ mode: config.mode, database: db.kind }, 'Guardian is running');
  return { app, db, logger, deps };
}
