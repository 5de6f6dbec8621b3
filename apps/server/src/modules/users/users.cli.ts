import { parseArgs } from 'node:util';
import { ADMIN_LEVEL, DEFAULT_USER_LEVEL } from '@guardian/contract';
import type { UsersService } from './users.service';

export const USAGE = `Usage: npm run users -- <command> [options]

Commands:
  create --email <e-mail> --password <password> [--level <n>]
                      Create a user. Level 0 is an administrator; the default is ${DEFAULT_USER_LEVEL}.
  list                List every user.
  set-password --email <e-mail> --password <password>
                      Change a user's password.
  disable --email <e-mail>
                      Stop a user from signing in; their open sessions end at once.
  enable --email <e-mail>
                      Let a disabled user sign in again.

It uses the server's configuration (DATABASE_URL, GUARDIAN_DATA_DIR, ...). With the embedded
database (no DATABASE_URL) stop the server first.`;

export type UsersCommand =
  | { name: 'help' }
  | { name: 'list' }
  | { name: 'create'; email: string; password: string; level: number }
  | { name: 'set-password'; email: string; password: string }
  | { name: 'disable' | 'enable'; email: string };

/** A command line that cannot be run: print the message and the usage, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

type OptionName = 'email' | 'password' | 'level';

const OPTIONS_OF: Record<Exclude<UsersCommand['name'], 'help'>, readonly OptionName[]> = {
  create: ['email', 'password', 'level'],
  list: [],
  'set-password': ['email', 'password'],
  disable: ['email'],
  enable: ['email'],
};

function readArgs(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        level: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    // Node's own wording ("Unknown option '--x'") is clear enough for a command line.
    throw new UsageError((err as Error).message);
  }
}

export function parseUsersCommand(argv: readonly string[]): UsersCommand {
  const { values, positionals } = readArgs(argv);
  const [name, ...extra] = positionals;
  if (values.help || name === undefined || name === 'help') return { name: 'help' };
  if (!Object.hasOwn(OPTIONS_OF, name)) throw new UsageError(`Unknown command "${name}".`);
  const command = name as keyof typeof OPTIONS_OF;
  if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}".`);

  const allowed = OPTIONS_OF[command];
  const given = (['email', 'password', 'level'] as const).filter((option) => values[option] !== undefined);
  const unexpected = given.find((option) => !allowed.includes(option));
  if (unexpected) throw new UsageError(`"${command}" takes no --${unexpected}.`);
  const required = allowed.filter((option) => option !== 'level');
  const missing = required.find((option) => values[option] === undefined);
  if (missing) throw new UsageError(`"${command}" needs --${missing}.`);

  const email = values.email ?? '';
  const password = values.password ?? '';
  switch (command) {
    case 'list':
      return { name: 'list' };
    case 'create':
      return { name: 'create', email, password, level: parseLevel(values.level) };
    case 'set-password':
      return { name: 'set-password', email, password };
    case 'disable':
    case 'enable':
      return { name: command, email };
  }
}

function parseLevel(text: string | undefined): number {
  if (text === undefined) return DEFAULT_USER_LEVEL;
  if (!/^\d+$/.test(text))
    throw new UsageError(`--level must be a whole number of 0 or more, not "${text}".`);
  return Number(text);
}

function describeLevel(level: number): string {
  return level === ADMIN_LEVEL ? 'level 0, administrator' : `level ${level}`;
}

/** Runs one command, printing what happened; failures (unknown e-mail, taken e-mail...) throw. */
export async function runUsersCommand(
  command: UsersCommand,
  users: UsersService,
  print: (line: string) => void,
): Promise<void> {
  switch (command.name) {
    case 'help':
      print(USAGE);
      return;
    case 'create': {
      const user = await users.create(command);
      print(`Created user ${user.id}: ${user.email} (${describeLevel(user.level)}).`);
      return;
    }
    case 'list': {
      const all = await users.list();
      if (all.length === 0) {
        print(
          'No users yet. Create the first administrator with: npm run users -- create --email ... --password ... --level 0',
        );
        return;
      }
      const rows = all.map((user) => [
        String(user.id),
        user.email,
        String(user.level),
        user.disabled ? 'disabled' : 'active',
        user.createdAt.toISOString(),
      ]);
      const table = [['ID', 'E-MAIL', 'LEVEL', 'STATUS', 'CREATED'], ...rows];
      const widths = table[0]!.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
      for (const row of table)
        print(
          row
            .map((cell, column) => cell.padEnd(widths[column]!))
            .join('  ')
            .trimEnd(),
        );
      return;
    }
    case 'set-password':
      await users.setPassword(command.email, command.password);
      print(
        `Changed the password of ${command.email}: a running server ends their open sessions within seconds.`,
      );
      return;
    case 'disable':
      await users.setDisabled(command.email, true);
      print(
        `Disabled ${command.email}: they can no longer sign in, and a running server ends their open sessions within seconds.`,
      );
      return;
    case 'enable':
      await users.setDisabled(command.email, false);
      print(`Enabled ${command.email}: they can sign in again (their earlier sessions stay ended).`);
      return;
  }
}
