import type { FastifyInstance } from 'fastify';
import type { DestinationStream, Logger } from 'pino';
import { buildApp, createAppDeps } from './app';
import type { AppDeps } from './deps';
import type { Config } from './config';
import { createDb, DatabaseUnavailableError, runMigrations, type Db } from './db';
import { createLogger } from './logger';

const DATABASE_WAIT_ATTEMPTS = 15;
const DATABASE_WAIT_MS = 2_000;
const SHUTDOWN_TIMEOUT_MS = 15_000;

export interface RunningServer {
  app: FastifyInstance;
  db: Db;
  logger: Logger;
  deps: AppDeps;
  /** Graceful stop: no new connections, requests in flight finish, then the database closes. */
  stop(): Promise<void>;
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
      logger.warn(
        { err: err.cause },
        `The database is not reachable yet; retrying in ${DATABASE_WAIT_MS / 1000} s`,
      );
      await new Promise((resolve) => setTimeout(resolve, DATABASE_WAIT_MS));
    }
  }
}

export interface RunServerOptions {
  /** Runs after the HTTP server has stopped and before the database closes (e.g. the demo's sandbox). */
  onStop?: () => Promise<void>;
  /** Stop on SIGTERM and SIGINT (default true; tests call `stop()` themselves). */
  handleSignals?: boolean;
  /** Where log lines go (default stdout). */
  logDestination?: DestinationStream;
  /** Dependencies to swap (tests). */
  deps?: Partial<Omit<AppDeps, 'db' | 'logger'>>;
}

/**
 * Opens the database, migrates, builds the app and listens. `stop()` (and SIGTERM/SIGINT) stops
 * accepting connections, lets requests in flight finish, then runs `onStop` and closes the database.
 */
export async function runServer(config: Config, options: RunServerOptions = {}): Promise<RunningServer> {
  // Bearer tokens and Cloudflare API tokens are secrets: never in a log line.
  const logger = createLogger(config, options.logDestination);
  const db = await createDb(config, { logger });
  await migrate(db, logger);
  const deps = createAppDeps(config, db, options.deps);
  const app = await buildApp(config, { ...deps, logger });

  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      logger.info('Shutting down: finishing requests in flight');
      // Stops accepting connections and waits for requests in flight; then nothing uses the database.
      await app.close();
      await options.onStop?.();
      await db.close();
      logger.info('Stopped');
    })());

  if (options.handleSignals ?? true) {
    const onSignal = (signal: NodeJS.Signals) => {
      logger.info({ signal }, 'Received a stop signal');
      const watchdog = setTimeout(() => {
        logger.error('Shutdown took too long; exiting');
        process.exit(1);
      }, SHUTDOWN_TIMEOUT_MS);
      watchdog.unref();
      stop().then(
        () => clearTimeout(watchdog),
        (err: unknown) => {
          logger.error({ err }, 'Shutdown failed');
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  }

  await app.listen({ port: config.port, host: config.host });
  logger.info({ mode: config.mode, database: db.kind }, 'Guardian is running');
  return { app, db, logger, deps, stop };
}
