import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { decodeJwt } from 'jose';
import { createTestContext, type TestContext } from '../../test/context';
import { AppError } from '../../app-error';
import {
  parseUsersCommand,
  promptHidden,
  readNewPassword,
  readPipedPassword,
  runUsersCommand,
  UsageError,
  type UsersCommand,
} from './users.cli';
import { TwoFactorRepository } from '../two-factor';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

let ctx: TestContext;
let users: UsersService;
beforeAll(async () => {
  ctx = await createTestContext();
  users = new UsersService(new UsersRepository(ctx.db), ctx.config.passwordHashing);
});
afterAll(() => ctx?.close());

/** Runs a users command line as the CLI does and returns what it printed. */
async function cli(line: string, password?: string): Promise<string> {
  const printed: string[] = [];
  const command: UsersCommand = parseUsersCommand(line.split(' ').filter(Boolean));
  await runUsersCommand(
    command,
    users,
    (text) => printed.push(text),
    // As piped with --password-stdin (the prompt has its own tests below).
    (from) => {
      expect(from).toBe(line.includes('--password-stdin') ? 'stdin' : 'prompt');
      return readPipedPassword(Readable.from([`${password}\n`]));
    },
    async (email) => (await new TwoFactorRepository(ctx.db).resetByEmail(email)) !== undefined,
  );
  return printed.join('\n');
}

function login(email: string, password: string) {
  return ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
}

describe('users command', () => {
  it('creates users who can then sign in, administrators with --level 0', async () => {
    expect(await cli('create --email root@example.com --level 0', 'first-password')).toMatch(
      /^Created user \d+: root@example.com \(level 0, administrator\)\.$/,
    );
    expect(await cli('create --email plain@example.com --password-stdin', 'plain-password')).toMatch(
      /\(level 1\)/,
    );
    const response = await login('root@example.com', 'first-password');
    expect(response.statusCode).toBe(200);
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/admin/users',
      headers: { authorization: `Bearer ${response.json().token}` },
    });
    expect(me.statusCode).toBe(200);
  });

  it('stores an argon2id hash, never the password', async () => {
    const [row] = await ctx.db.query<{ password_hash: string }>(
      `SELECT password_hash FROM users WHERE email = 'root@example.com'`,
    );
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    expect(row!.password_hash).not.toContain('first-password');
  });

  it('lists users in a table', async () => {
    const output = await cli('list');
    const [header, ...rows] = output.split('\n');
    expect(header).toMatch(/^ID\s+E-MAIL\s+LEVEL\s+STATUS\s+CREATED$/);
    expect(rows.some((row) => /root@example.com\s+0\s+active/.test(row))).toBe(true);
  });

  it('changes a password: the old one stops working, and so does every session opened before, even in the same second', async () => {
    const me = (token: string) =>
      ctx.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });
    // Issue 13: tokens carried whole seconds, so one signed in the second of the change survived it.
    // Start early in a second, so the sign-in and the change share it.
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 10));
    const sameSecond = (await login('root@example.com', 'first-password')).json().token as string;
    expect((await me(sameSecond)).statusCode).toBe(200);

    expect(await cli('set-password --email ROOT@example.com --password-stdin', 'second-password')).toBe(
      'Changed the password of ROOT@example.com: a running server ends their open sessions within seconds.',
    );
    expect(decodeJwt(sameSecond).iat).toBe(Math.floor(Date.now() / 1000));
    expect((await login('root@example.com', 'first-password')).statusCode).toBe(401);
    const ended = await me(sameSecond);
    expect(ended.statusCode).toBe(401);
    expect(ended.json().message).toBe('Your session has ended. Please sign in again.');

    const fresh = await login('root@example.com', 'second-password');
    expect(fresh.statusCode).toBe(200);
    expect((await me(fresh.json().token)).statusCode).toBe(200);
  });

  it('disables a user, ending their sessions for good: enabling them again brings none back', async () => {
    const token = (await login('plain@example.com', 'plain-password')).json().token;
    const me = () =>
      ctx.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });
    expect((await me()).statusCode).toBe(200);

    await cli('disable --email plain@example.com');
    expect((await me()).statusCode).toBe(401);
    expect((await login('plain@example.com', 'plain-password')).statusCode).toBe(401);
    expect(await cli('list')).toMatch(/plain@example.com\s+1\s+disabled/);

    expect(await cli('enable --email plain@example.com')).toBe(
      'Enabled plain@example.com: they can sign in again (their earlier sessions stay ended).',
    );
    // Issue 13: the token issued before `disable` worked again after `enable`.
    const revived = await me();
    expect(revived.statusCode).toBe(401);
    expect(revived.json().message).toBe('Your session has ended. Please sign in again.');
    expect((await login('plain@example.com', 'plain-password')).statusCode).toBe(200);
  });

  it.each([
    ['create --email ROOT@EXAMPLE.COM', 'CONFLICT'],
    ['set-password --email nobody@example.com', 'NOT_FOUND'],
    ['disable --email nobody@example.com', 'NOT_FOUND'],
  ])('fails clearly: %s', async (line, code) => {
    await expect(cli(line, 'long-enough-password')).rejects.toMatchObject({ code });
    await expect(cli(line, 'long-enough-password')).rejects.toBeInstanceOf(AppError);
  });

  it.each([
    ['create --email not-an-email', 'long-enough', 'E-mail must look like name@example.com.'],
    ['create --email a@example.com', 'short', 'Password must be at least 8 characters.'],
  ])('validates what it stores: %s', async (line, password, message) => {
    await expect(cli(line, password)).rejects.toThrow(message);
  });
});

describe('parseUsersCommand', () => {
  it.each([
    [[], { name: 'help' }],
    [['--help'], { name: 'help' }],
    [['list'], { name: 'list' }],
    [['create', '--email', 'a@b.co'], { name: 'create', email: 'a@b.co', level: 1, passwordFrom: 'prompt' }],
    [
      ['create', '--email=a@b.co', '--password-stdin', '--level=0'],
      { name: 'create', email: 'a@b.co', level: 0, passwordFrom: 'stdin' },
    ],
    [
      ['set-password', '--email', 'a@b.co', '--password-stdin'],
      { name: 'set-password', email: 'a@b.co', passwordFrom: 'stdin' },
    ],
    [['disable', '--email', 'a@b.co'], { name: 'disable', email: 'a@b.co' }],
  ])('reads %j', (argv, command) => {
    expect(parseUsersCommand(argv)).toEqual(command);
  });

  it.each([
    [['frobnicate'], 'Unknown command "frobnicate".'],
    [['toString'], 'Unknown command "toString".'],
    [['create', '--level', '0'], '"create" needs --email.'],
    [
      ['create', '--email', 'a@b.co', '--password', 'visible'],
      'The password is not taken from the command line',
    ],
    [['set-password', '--email', 'a@b.co', '--password=visible'], 'pipe it with --password-stdin'],
    [['disable', '--email', 'a@b.co', '--password-stdin'], '"disable" takes no --password-stdin.'],
    [['create', '--email', 'a@b.co', '--level', 'admin'], '--level must be a whole number'],
    [['create', '--email', 'a@b.co', '--level=-1'], '--level must be a whole number'],
    [['list', '--email', 'a@b.co'], '"list" takes no --email.'],
    [['disable', 'a@b.co'], 'Unexpected argument "a@b.co".'],
    [['list', '--colour'], "Unknown option '--colour'"],
  ])('refuses %j', (argv, message) => {
    expect(() => parseUsersCommand(argv)).toThrow(UsageError);
    expect(() => parseUsersCommand(argv)).toThrow(message);
  });
});

describe('reading a new password', () => {
  it('reads a piped password whole, less one final line break', async () => {
    expect(await readPipedPassword(Readable.from(['pass word with spaces\n']))).toBe('pass word with spaces');
    expect(await readPipedPassword(Readable.from(['crlf-ended\r\n']))).toBe('crlf-ended');
    expect(await readPipedPassword(Readable.from([Buffer.from('çok-gizli-'), Buffer.from('parola')]))).toBe(
      'çok-gizli-parola',
    );
    await expect(readPipedPassword(Readable.from(['x'.repeat(100_000)]))).rejects.toThrow(UsageError);
  });

  it('prompts without echoing what is typed', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const shown: string[] = [];
    output.on('data', (chunk: Buffer) => shown.push(chunk.toString()));
    const answer = promptHidden('Password: ', input, output);
    input.write('s3cret-typed\r');
    expect(await answer).toBe('s3cret-typed');
    expect(shown.join('')).toContain('Password: ');
    expect(shown.join('')).not.toContain('s3cret');
  });

  it('refuses to prompt without a terminal, and says how to pipe instead', async () => {
    const notATerminal = Object.assign(new PassThrough(), { isTTY: false }) as unknown as NodeJS.ReadStream;
    await expect(readNewPassword('prompt', notATerminal, new PassThrough())).rejects.toThrow(
      'No terminal to type the password in: pipe it with --password-stdin.',
    );
  });

  it('the users command takes the password from standard input and never from its arguments (ps shows those)', () => {
    const tsx = createRequire(import.meta.url).resolve('tsx');
    const script = fileURLToPath(new URL('../../users-cli.ts', import.meta.url));
    const run = (args: string[], stdin: string) =>
      spawnSync(process.execPath, ['--import', tsx, script, ...args], {
        input: stdin,
        encoding: 'utf8',
        env: { ...process.env, GUARDIAN_MODE: 'test', DATABASE_URL: '' },
        timeout: 60_000,
      });
    const piped = run(['create', '--email', 'piped@example.com', '--password-stdin'], 'piped-password\n');
    expect(piped.stderr).toBe('');
    expect(piped.stdout).toMatch(/^Created user \d+: piped@example.com \(level 1\)\.\n$/);
    expect(piped.status).toBe(0);

    const onCommandLine = run(['create', '--email', 'argv@example.com', '--password', 'visible-in-ps'], '');
    expect(onCommandLine.status).toBe(2);
    expect(onCommandLine.stderr).toContain('The password is not taken from the command line');
    expect(onCommandLine.stdout).toBe('');
    // Two runs of the command, each starting tsx and an embedded database: slow on a busy machine.
  }, 150_000);
});
