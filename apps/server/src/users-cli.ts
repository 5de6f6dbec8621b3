import { ZodError } from 'zod';
import { ConfigError, loadConfig } from './config';
import { createDb, DatabaseUnavailableError, DataDirLockedError, runMigrations, type Db } from './db';
import { AppError } from './app-error';
import { describeZodError } from './errors';
import { parseUsersCommand, readNewPassword, runUsersCommand, UsageError, USAGE } from './modules/users';
import { TwoFactorRepository, TwoFactorService } from './modules/two-factor';
import { AlertCauses } from './modules/alerts';
import { TokenCipher } from './crypto/token-cipher';
import { UsersRepository } from './modules/users';
import { UsersService } from './modules/users';

function describeFailure(err: unknown): string {
  if (err instanceof ZodError) return describeZodError(err);
  if (err instanceof AppError || err instanceof DataDirLockedError) return err.message;
  if (err instanceof DatabaseUnavailableError) {
    const cause = err.cause as NodeJS.ErrnoException;
    return `Cannot reach the database (${cause.message || cause.code}). Check DATABASE_URL and that PostgreSQL is running.`;
  }
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

/** Exit codes: 0 done, 1 the command failed, 2 the command line or configuration is wrong. */
async function main(argv: readonly string[]): Promise<number> {
  let db: Db | undefined;
  try {
    const command = parseUsersCommand(argv);
    if (command.name === 'help') {
      console.log(USAGE);
      return 0;
    }
    const config = loadConfig();
    db = await createDb(config);
    // The first administrator is usually created before the server ever started.
    await runMigrations(db);
    await runUsersCommand(
      command,
      new UsersService(new UsersRepository(db), config.passwordHashing),
      (line) => console.log(line),
      (from) => readNewPassword(from),
      // Through the service, so the person's "two-factor reset" alert is raised as the Users page's reset does.
      (email) =>
        new TwoFactorService(
          new TwoFactorRepository(db!),
          new TokenCipher(config.encryptionKey),
          config,
          new AlertCauses(db!, (err) => console.error('Could not record the alert:', err)).twoFactorReset,
        ).resetByEmail(email),
    );
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n\n${USAGE}`);
      return 2;
    }
    if (err instanceof ConfigError) {
      console.error(err.message);
      return 2;
    }
    console.error(describeFailure(err));
    return 1;
  } finally {
    await db?.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
