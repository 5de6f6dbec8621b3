import { ConfigError, loadConfig, type Config } from './config';
import { UsersRepository } from './modules/users';
import { runServer } from './server';

function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    process.exit(2);
  }
}

async function start(): Promise<void> {
  const config = loadConfigOrExit();
  const { db, logger } = await runServer(config);
  if (config.mode === 'production' && (await new UsersRepository(db).count()) === 0) {
    logger.warn(
      'No users exist yet, so nobody can sign in. Guardian keeps running; create the first administrator with: npm run users -- create --email you@example.com --level 0 (it asks for the password)',
    );
  }
}

start().catch((err: unknown) => {
  console.error('Guardian failed to start:', err);
  process.exit(1);
});
