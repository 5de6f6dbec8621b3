import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { ADMIN_LEVEL, DEFAULT_USER_LEVEL } from '@guardian/contract';
import { AppError } from '../../app-error';
import type { UsersService } from './users.service';

export const USAGE = `Usage: npm run users -- <command> [options]

Commands:
  create --email <e-mail> [--level <n>] [--password-stdin]
                      Create a user. Level 0 is an administrator; the default is ${DEFAULT_USER_LEVEL}.
  list                List every user.
  set-password --email <e-mail> [--password-stdin]
                      Change a user's password; their open sessions end.
  disable --email <e-mail>
                      Stop a user from signing in; their open sessions end for good.
  enable --email <e-mail>
                      Let a disabled user sign in again.
  reset-two-factor --email <e-mail>
                      Turn a user's two-factor sign-in off (phone and recovery codes lost);
                      their open sessions end.

The password is typed at a prompt (not shown, asked twice), or read from standard input with
--password-stdin (for scripts: printf '%s' "$PASSWORD" | npm run users -- create ... --password-stdin).
It is never taken from the command line, where other users see it in \`ps\` and it stays in the
shell's history.

It uses the server's configuration (DATABASE_URL, GUARDIAN_DATA_DIR, ...). With the embedded
database (no DATABASE_URL) stop the server first.`;

/** Where a new password comes from: typed at a prompt without echo, or piped on standard input. */
export type PasswordSource = 'prompt' | 'stdin';

export type UsersCommand =
  | { name: 'help' }
  | { name: 'list' }
  | { name: 'create'; email: string; level: number; passwordFrom: PasswordSource }
  | { name: 'set-password'; email: string; passwordFrom: PasswordSource }
  | { name: 'disable' | 'enable' | 'reset-two-factor'; email: string };

/** A command line that cannot be run: print the message and the usage, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

type OptionName = 'email' | 'level' | 'password-stdin';

const OPTIONS_OF: Record<Exclude<UsersCommand['name'], 'help'>, readonly OptionName[]> = {
  create: ['email', 'level', 'password-stdin'],
  list: [],
  'set-password': ['email', 'password-stdin'],
  disable: ['email'],
  enable: ['email'],
  'reset-two-factor': ['email'],
};
const OPTIONAL: readonly OptionName[] = ['level', 'password-stdin'];

function readArgs(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        email: { type: 'string' },
        level: { type: 'string' },
        'password-stdin': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    if (argv.some((arg) => arg === '--password' || arg.startsWith('--password='))) {
      throw new UsageError(
        'The password is not taken from the command line (others see it in `ps` and it stays in the shell history): type it at the prompt, or pipe it with --password-stdin.',
      );
    }
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
  const given = (['email', 'level', 'password-stdin'] as const).filter(
    (option) => values[option] !== undefined,
  );
  const unexpected = given.find((option) => !allowed.includes(option));
  if (unexpected) throw new UsageError(`"${command}" takes no --${unexpected}.`);
  const required = allowed.filter((option) => !OPTIONAL.includes(option));
  const missing = required.find((option) => values[option] === undefined);
  if (missing) throw new UsageError(`"${command}" needs --${missing}.`);

  const email = values.email ?? '';
  const passwordFrom: PasswordSource = values['password-stdin'] ? 'stdin' : 'prompt';
  switch (command) {
    case 'list':
      return { name: 'list' };
    case 'create':
      return { name: 'create', email, level: parseLevel(values.level), passwordFrom };
    case 'set-password':
      return { name: 'set-password', email, passwordFrom };
    case 'disable':
    case 'enable':
    case 'reset-two-factor':
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

/**
 * Runs one command, printing what happened; failures (unknown e-mail, taken e-mail...) throw.
 * `readPassword` asks for a new password where the command line said (see `readNewPassword`).
 */
export async function runUsersCommand(
  command: UsersCommand,
  users: UsersService,
  print: (line: string) => void,
  readPassword: (from: PasswordSource) => Promise<string>,
  /** Turns a user's two-factor off and ends their sessions; false when no user has the e-mail. */
  resetTwoFactor: (email: string) => Promise<boolean>,
): Promise<void> {
  switch (command.name) {
    case 'help':
      print(USAGE);
      return;
    case 'create': {
      const { email, level } = command;
      const user = await users.create({ email, level, password: await readPassword(command.passwordFrom) });
      print(`Created user ${user.id}: ${user.email} (${describeLevel(user.level)}).`);
      return;
    }
    case 'list': {
      const all = await users.list();
      if (all.length === 0) {
        print(
          'No users yet. Create the first administrator with: npm run users -- create --email ... --level 0',
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
      await users.setPassword(command.email, await readPassword(command.passwordFrom));
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
    case 'reset-two-factor':
      if (!(await resetTwoFactor(command.email))) {
        throw new AppError('NOT_FOUND', `No user has the e-mail ${command.email}.`);
      }
      print(
        `Turned off two-factor sign-in for ${command.email}: they sign in with their password, and a running server ends their open sessions within seconds.`,
      );
      return;
  }
}

/** More than any password the contract accepts (1,024 characters), less than a mistaken file. */
const MAX_PIPED_PASSWORD_BYTES = 8 * 1024;

/** The password piped on standard input: all of it, less one final line break. */
export async function readPipedPassword(input: AsyncIterable<Buffer | string>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size > MAX_PIPED_PASSWORD_BYTES)
      throw new UsageError('--password-stdin reads one password, not a file: standard input is too long.');
    chunks.push(bytes);
  }
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** Asks `question` on `output` and reads one line from `input`, echoing nothing of what is typed. */
export function promptHidden(
  question: string,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): Promise<string> {
  // readline echoes the keys to its output: give it one that shows only the question.
  let muted = false;
  const echo = new Writable({
    write(chunk, encoding, done) {
      if (!muted) output.write(chunk, encoding);
      done();
    },
  });
  const rl = createInterface({ input, output: echo, terminal: true });
  return new Promise((resolve, reject) => {
    let answered = false;
    rl.on('SIGINT', () => rl.close());
    rl.on('close', () => {
      output.write('\n');
      if (!answered) reject(new UsageError('No password given.'));
    });
    rl.question(question, (answer) => {
      answered = true;
      rl.close();
      resolve(answer);
    });
    muted = true;
  });
}

/**
 * A new password from standard input, or typed twice at a prompt on a terminal (never from the
 * command line, where it would show in `ps`).
 */
export async function readNewPassword(
  from: PasswordSource,
  input: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WritableStream = process.stderr,
): Promise<string> {
  if (from === 'stdin') return readPipedPassword(input);
  if (!input.isTTY)
    throw new UsageError('No terminal to type the password in: pipe it with --password-stdin.');
  const password = await promptHidden('Password: ', input, output);
  if ((await promptHidden('Repeat the password: ', input, output)) !== password)
    throw new UsageError('The two passwords differ.');
  return password;
}
