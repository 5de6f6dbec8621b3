import { pino, type Logger } from 'pino';
import { buildApp, createAppDeps } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { createDb, DatabaseUnavailableError, runMigrations, type Db } from './db';
import { UsersRepository } from './modules/users/users.repository';

const DATABASE_WAIT_ATTEMPTS = 15;
const DATABASE_WAIT_MS = 2_000;
const SHUTDOWN_TIMEOUT_MS = 15_000;

function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    process.exit(2);
  }
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

async function start(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = pino({ level: config.logLevel });
  const db = await createDb(config, { logger });
  await migrate(db, logger);
  const app = await buildApp(config, { ...createAppDeps(config, db), logger });

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
    await db.close();
    logger.info('Stopped');
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);

  const hasUsers = (await new UsersRepository(db).count()) > 0;
  await app.listen({ port: config.port, host: config.host });
  logger.info({ mode: config.mode, database: db.kind }, 'Guardian is running');
  if (config.mode === 'production' && !hasUsers) {
    logger.warn(
      "No users exist yet, so nobody can sign in. Guardian keeps running; create the first administrator with: npm run users -- create --email you@example.com --password '...' --level 0",
    );
  }
}

start().catch((err: unknown) => {
  console.error('Guardian failed to start:', err);
  process.exit(1);
});
