import { fork, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestContext, type TestContext } from '../test/context';
import { isGone, isRunning, lockDataDir, DataDirLockedError } from './data-dir-lock';
import {
  copyRows,
  createDb,
  DatabaseUnavailableError,
  isUniqueViolation,
  PREPARED,
  runMigrations,
  type Queryable,
} from '.';
import { migrations } from './migrations';
import { createPgliteDb } from './pglite';
import { createPostgresDb } from './postgres';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

describe('Db', () => {
  it('returns the same JavaScript types on PGlite and PostgreSQL', async () => {
    const [row] = await ctx.db.query<Record<string, unknown>>(
      `SELECT 42::int8 AS big, count(*) AS counted, 1.5::numeric AS decimal, '2024-02-03'::date AS day,
              '2024-02-03T04:05:06Z'::timestamptz AS moment, '{"a":[1]}'::jsonb AS doc, true AS flag
       FROM (VALUES (1), (2)) AS v(x)`,
    );
    expect(row).toEqual({
      big: 42,
      counted: 2,
      decimal: '1.5',
      day: '2024-02-03',
      moment: new Date('2024-02-03T04:05:06Z'),
      doc: { a: [1] },
      flag: true,
    });
  });

  it.runIf(process.env.TEST_DB !== 'postgres')(
    "plans each run of PGlite's named statements with its values, as an unnamed statement is planned",
    async () => {
      const [row] = await ctx.db.query<{ mode: string }>('SELECT current_setting($1) AS mode', [
        'plan_cache_mode',
      ]);
      expect(row!.mode).toBe('force_custom_plan');
    },
  );

  it('plans a statement asked to reuse its plan once, and every other with its values', async () => {
    await ctx.db.exec('CREATE TABLE plan_probe (id int PRIMARY KEY, name text NOT NULL)');
    const reused = 'SELECT name FROM plan_probe WHERE id = $1';
    const custom = 'SELECT name FROM plan_probe WHERE id = $1 + 0';
    const plans = (tx: Queryable, sql: string) =>
      tx.query<{ generic: number; custom: number }>(
        `SELECT generic_plans AS generic, custom_plans AS custom FROM pg_prepared_statements WHERE statement = $1`,
        [sql],
      );
    // One connection (PostgreSQL's prepared statements are its own), the same SQL run eight times each.
    const [reusedPlans, customPlans] = await ctx.db.transaction(async (tx) => {
      for (let run = 0; run < 8; run++) {
        await tx.query(reused, [run], { reusePlan: true });
        await tx.query(custom, [run]);
      }
      return [await plans(tx, reused), await plans(tx, custom)];
    });
    expect(reusedPlans[0]!.generic).toBeGreaterThan(0);
    // PGlite runs each statement prepared, planned per run; node-postgres sends it unnamed (not kept).
    expect(customPlans.map((row) => row.generic)).toEqual(customPlans.length > 0 ? [0] : []);

    // A statement that fails leaves the database planning the others as before, in or out of a transaction.
    const mode = async () =>
      (await ctx.db.query<{ mode: string }>(`SELECT current_setting('plan_cache_mode') AS mode`))[0]!.mode;
    const before = await mode();
    const failing = 'SELECT 1 / $1::int AS quotient';
    await expect(ctx.db.query(failing, [0], { reusePlan: true })).rejects.toThrow(/division by zero/);
    await expect(ctx.db.transaction((tx) => tx.query(failing, [0], { reusePlan: true }))).rejects.toThrow(
      /division by zero/,
    );
    expect(await ctx.db.query(failing, [2], { reusePlan: true })).toEqual([{ quotient: 0 }]);
    expect(await mode()).toBe(before);
  });

  it("keeps a page's read parsed on its connection, planned as the database chooses (PREPARED)", async () => {
    await ctx.db.exec('CREATE TABLE prepared_probe (id int PRIMARY KEY, name text NOT NULL)');
    const read = 'SELECT name FROM prepared_probe WHERE id = $1';
    const runs = await ctx.db.transaction(async (tx) => {
      for (let run = 0; run < 8; run++) await tx.query(read, [run], PREPARED);
      return tx.query<{ generic: number; custom: number }>(
        `SELECT generic_plans AS generic, custom_plans AS custom FROM pg_prepared_statements WHERE statement = $1`,
        [read],
      );
    });
    // Kept by the connection (parsed once); unnamed, node-postgres would keep nothing.
    expect(runs).toHaveLength(1);
    const { generic, custom } = runs[0]!;
    expect(generic + custom).toBe(8);
    // PGlite plans every run with its values (the host's setting), as it does any statement.
    if (ctx.db.kind === 'pglite') expect(generic).toBe(0);
  });

  it('has pg_trgm for trigram search', async () => {
    const [row] = await ctx.db.query<{ similar: boolean }>(`SELECT 'guardian' % 'guardain' AS similar`);
    expect(row!.similar).toBe(true);
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    await ctx.db.exec('CREATE TABLE tx_probe (value text NOT NULL)');
    await ctx.db.transaction(async (tx) => {
      await tx.query('INSERT INTO tx_probe VALUES ($1)', ['kept']);
    });
    await expect(
      ctx.db.transaction(async (tx) => {
        await tx.query('INSERT INTO tx_probe VALUES ($1)', ['dropped']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await ctx.db.query('SELECT value FROM tx_probe')).toEqual([{ value: 'kept' }]);
  });

  it('copies rows in with every value as given, in a transaction or not; a bad row copies nothing', async () => {
    await ctx.db.exec(
      'CREATE TABLE copy_probe (n int8 NOT NULL, note text, moment timestamptz, address inet)',
    );
    const tricky = 'tab\there, new\nline, cr\r, back\\slash \\N, quote " and ’ and 🛡';
    await ctx.db.copyIn(
      'copy_probe (n, note, moment, address)',
      copyRows([
        [1, tricky, '2024-02-03T04:05:06.789Z', '2001:db8::/32'],
        [2, '', null, null],
        [3, null, '2024-02-03T04:05:06Z', '10.0.0.1'],
      ]),
    );
    await ctx.db.transaction((tx) => tx.copyIn('copy_probe (n, note)', copyRows([[4, '\\N']])));
    await expect(
      ctx.db.copyIn(
        'copy_probe (n, note)',
        copyRows([
          [5, 'fine'],
          ['six', 'bad'],
        ]),
      ),
    ).rejects.toThrow(/invalid input syntax for type bigint/);
    expect(
      await ctx.db.query(
        'SELECT n, note, moment, host(address) AS host, masklen(address) AS mask FROM copy_probe ORDER BY n',
      ),
    ).toEqual([
      { n: 1, note: tricky, moment: new Date('2024-02-03T04:05:06.789Z'), host: '2001:db8::', mask: 32 },
      { n: 2, note: '', moment: null, host: null, mask: null },
      { n: 3, note: null, moment: new Date('2024-02-03T04:05:06Z'), host: '10.0.0.1', mask: 32 },
      { n: 4, note: '\\N', moment: null, host: null, mask: null },
    ]);
  });
  it('applies each migration once, in order, and records it', async () => {
    expect(await runMigrations(ctx.db)).toEqual([]);
    const recorded = await ctx.db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(recorded.map((row) => row.name)).toEqual(migrations.map((migration) => migration.name));
    const applied = await runMigrations(ctx.db, [
      { name: '001_users', sql: 'SELECT 1/0' },
      {
        name: '900_probe',
        sql: 'CREATE TABLE migration_probe (id int); CREATE INDEX ON migration_probe (id);',
      },
    ]);
    expect(applied).toEqual(['900_probe']);
  });

  it('leaves the database as it was when a migration fails', async () => {
    await expect(
      runMigrations(ctx.db, [
        { name: '901_good', sql: 'CREATE TABLE half_done (id int)' },
        { name: '902_bad', sql: 'CREATE TABLE broken (' },
      ]),
    ).rejects.toThrow();
    expect(
      await ctx.db.query(`SELECT name FROM schema_migrations WHERE name LIKE '90%' AND name <> '900_probe'`),
    ).toEqual([]);
    expect(await ctx.db.query(`SELECT to_regclass('half_done') AS found`)).toEqual([{ found: null }]);
  });

  it("keeps PostgreSQL's error fields, so a taken unique value is told apart", async () => {
    await ctx.db.exec('CREATE TABLE unique_probe (email text UNIQUE)');
    await ctx.db.query('INSERT INTO unique_probe VALUES ($1)', ['a@example.com']);
    const err: unknown = await ctx.db
      .query('INSERT INTO unique_probe VALUES ($1)', ['a@example.com'])
      .catch((caught: unknown) => caught);
    expect(isUniqueViolation(err)).toBe(true);
    expect(err).toMatchObject({ constraint: 'unique_probe_email_key' });
    expect((err as Error).message).toMatch(/duplicate key/);
  });

  it('fails with DatabaseUnavailableError when PostgreSQL cannot be reached', async () => {
    const db = createPostgresDb('postgres://postgres@127.0.0.1:1/none');
    try {
      await expect(db.query('SELECT 1')).rejects.toBeInstanceOf(DatabaseUnavailableError);
      await expect(db.transaction(async (tx) => tx.query('SELECT 1'))).rejects.toBeInstanceOf(
        DatabaseUnavailableError,
      );
    } finally {
      await db.close();
    }
  });
});

describe.runIf(process.env.TEST_DB === 'postgres')('Db on PostgreSQL', () => {
  it('lets two processes start together: migrations run once', async () => {
    const schema = (await ctx.db.query<{ schema: string }>('SELECT current_schema() AS schema'))[0]!.schema;
    const probe = [{ name: '950_concurrent', sql: 'CREATE TABLE concurrent_probe (id int)' }];
    const first = createPostgresDb(ctx.config.databaseUrl!, { schema });
    const second = createPostgresDb(ctx.config.databaseUrl!, { schema });
    try {
      const results = await Promise.all([runMigrations(first, probe), runMigrations(second, probe)]);
      expect(results.flat()).toEqual(['950_concurrent']);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('survives PostgreSQL dropping its connections, and works again afterwards', async () => {
    const warn = vi.fn();
    const schema = (await ctx.db.query<{ schema: string }>('SELECT current_schema() AS schema'))[0]!.schema;
    const db = createPostgresDb(ctx.config.databaseUrl!, { schema, logger: { warn } });
    const admin = new pg.Client({ connectionString: ctx.config.databaseUrl });
    await admin.connect();
    try {
      const [{ pid }] = (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')) as [
        { pid: number },
      ];
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      // The idle connection's error reaches the pool's listener instead of crashing the process.
      await vi.waitFor(() => expect(warn).toHaveBeenCalled());
      await expect(db.query('SELECT 1 AS ok')).resolves.toEqual([{ ok: 1 }]);

      // A connection lost inside a transaction fails that transaction as "unavailable", nothing more.
      const failed = db.transaction(async (tx) => {
        const [{ pid: txPid }] = (await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')) as [
          { pid: number },
        ];
        await admin.query('SELECT pg_terminate_backend($1)', [txPid]);
        await new Promise((resolve) => setTimeout(resolve, 100));
        await tx.query('SELECT 1');
      });
      await expect(failed).rejects.toBeInstanceOf(DatabaseUnavailableError);
      await expect(db.query('SELECT 2 AS ok')).resolves.toEqual([{ ok: 2 }]);
    } finally {
      await admin.end();
      await db.close();
    }
  });
});

/** Starting an embedded database (its own process, WebAssembly) takes seconds, far more on a busy machine. */
const HOSTED_DB_TIMEOUT_MS = 120_000;

describe('the embedded database folder', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'guardian-pglite-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('is locked against a second opener, and a stale lock is taken over', () => {
    const dbFolder = join(folder, 'pglite');
    // Held by another process that is running (this one's parent).
    writeFileSync(`${dbFolder}.lock`, String(process.ppid));
    expect(() => lockDataDir(dbFolder)).toThrow(DataDirLockedError);
    // A pid that cannot be running: the lock of a process that died.
    writeFileSync(`${dbFolder}.lock`, '999999999');
    lockDataDir(dbFolder).release();
  });

  it.runIf(process.env.TEST_DB !== 'postgres')(
    'keeps data across a restart',
    async () => {
      const config = { mode: 'production' as const, dataDir: folder, databaseUrl: undefined };
      const first = await createDb(config);
      await first.exec("CREATE TABLE kept (value text); INSERT INTO kept VALUES ('still here')");
      await first.close();
      const second = await createDb(config);
      try {
        expect(await second.query('SELECT value FROM kept')).toEqual([{ value: 'still here' }]);
      } finally {
        await second.close();
      }
    },
    HOSTED_DB_TIMEOUT_MS,
  );

  it.runIf(process.env.TEST_DB !== 'postgres')(
    'is hosted by a process of its own, which the server restarts if it dies',
    async () => {
      const warn = vi.fn();
      const db = await createPgliteDb(join(folder, 'hosted'), { logger: { warn } });
      try {
        const firstHost = db.hostPid()!;
        expect(firstHost).not.toBe(process.pid);
        await db.exec("CREATE TABLE survivor (value text); INSERT INTO survivor VALUES ('committed')");
        // A second opener of the folder is refused while the host holds it.
        await expect(createPgliteDb(join(folder, 'hosted'))).rejects.toThrow(DataDirLockedError);

        const held = db.transaction(async (tx) => {
          await tx.query("INSERT INTO survivor VALUES ('never committed')");
          process.kill(firstHost, 'SIGKILL');
          await tx.query('SELECT 1');
        });
        await expect(held).rejects.toBeInstanceOf(DatabaseUnavailableError);
        expect(warn).toHaveBeenCalled();

        // The next query starts a new host on the same folder: committed rows are there, the rest is not.
        expect(await db.query('SELECT value FROM survivor')).toEqual([{ value: 'committed' }]);
        expect(db.hostPid()).not.toBe(firstHost);
      } finally {
        await db.close();
      }
      expect(isRunning(db.hostPid()!)).toBe(false);
    },
    HOSTED_DB_TIMEOUT_MS,
  );

  it.runIf(process.env.TEST_DB !== 'postgres')(
    'closes and ends its host when the server is killed',
    async () => {
      const dbFolder = join(folder, 'orphan');
      // A server that opens the database and is killed at once, with no chance to close it.
      const script = `
        const { createPgliteDb } = await import(${JSON.stringify(new URL('./pglite.ts', import.meta.url).href)});
        const db = await createPgliteDb(${JSON.stringify(dbFolder)});
        console.log(db.hostPid());
        process.kill(process.pid, 'SIGKILL');`;
      const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
      const server = spawnSync(process.execPath, ['--import', tsx, '--input-type=module', '-e', script], {
        encoding: 'utf8',
      });
      const hostPid = Number(server.stdout.trim());
      expect(hostPid).toBeGreaterThan(0);
      await vi.waitFor(() => expect(isRunning(hostPid)).toBe(false), { timeout: 10_000 });
      expect(existsSync(`${dbFolder}.lock`)).toBe(false);
    },
    HOSTED_DB_TIMEOUT_MS,
  );

  it.runIf(process.env.TEST_DB !== 'postgres')(
    'a start takes the folder over from the stopped database process of a killed server, and says so',
    async () => {
      const dbFolder = join(folder, 'stopped-orphan');
      // A server whose database process is stopped (SIGSTOP) when the server is killed: the process
      // stays, holding the lock, and never hears that its server is gone.
      const script = `
        const { createPgliteDb } = await import(${JSON.stringify(new URL('./pglite.ts', import.meta.url).href)});
        const db = await createPgliteDb(${JSON.stringify(dbFolder)});
        await db.exec("CREATE TABLE kept (value text); INSERT INTO kept VALUES ('before the freeze')");
        console.log(db.hostPid());
        process.kill(db.hostPid(), 'SIGSTOP');
        process.kill(process.pid, 'SIGKILL');`;
      const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
      // Its output is not waited to end: the stopped process holds it open.
      const server = spawn(process.execPath, ['--import', tsx, '--input-type=module', '-e', script]);
      const [orphan] = await Promise.all([
        new Promise<number>((resolve) => server.stdout.once('data', (line) => resolve(Number(String(line))))),
        new Promise((resolve) => server.once('exit', resolve)),
      ]);
      server.stdout.destroy();
      server.stderr.destroy();
      expect(orphan).toBeGreaterThan(0);
      try {
        expect(isRunning(orphan)).toBe(true);
        const warn = vi.fn();
        const db = await createPgliteDb(dbFolder, { logger: { warn } });
        try {
          expect(await db.query('SELECT value FROM kept')).toEqual([{ value: 'before the freeze' }]);
          // Killed, it may stay a zombie a moment until its new parent reaps it: its files are closed.
          await vi.waitFor(() => expect(isGone(orphan)).toBe(true), { timeout: 10_000 });
          expect(warn).toHaveBeenCalledWith(
            expect.objectContaining({ previous: expect.objectContaining({ pid: orphan, killed: true }) }),
            expect.stringMatching(
              /locked by process \d+, which is not the database of a running server .* taken over/,
            ),
          );
        } finally {
          await db.close();
        }
      } finally {
        if (isRunning(orphan)) process.kill(orphan, 'SIGKILL');
      }
    },
    HOSTED_DB_TIMEOUT_MS,
  );

  it.runIf(process.env.TEST_DB !== 'postgres')(
    'a query waits on a stopped database process at most its bound, and a close ends that process',
    async () => {
      const dbFolder = join(folder, 'stalled');
      const db = await createPgliteDb(dbFolder, { queryTimeoutMs: 1_000 });
      const host = db.hostPid()!;
      try {
        const statement = db.query('SELECT pg_sleep(0.3)');
        process.kill(host, 'SIGSTOP');
        await expect(statement).rejects.toBeInstanceOf(DatabaseUnavailableError);
        // A close that never ended kept the server's stop waiting and the folder locked.
        const closed = db.close();
        const verdict = await Promise.race([
          closed.then(() => 'closed'),
          new Promise((resolve) => setTimeout(() => resolve('still waiting'), 30_000)),
        ]);
        expect(verdict).toBe('closed');
        expect(isRunning(host)).toBe(false);
        const again = await createPgliteDb(dbFolder);
        await expect(again.query('SELECT 1 AS ok')).resolves.toEqual([{ ok: 1 }]);
        await again.close();
      } finally {
        if (isRunning(host)) process.kill(host, 'SIGKILL');
      }
    },
    HOSTED_DB_TIMEOUT_MS,
  );

  it.runIf(process.env.TEST_DB !== 'postgres')(
    'a database process whose server went before its reply closes the database and ends cleanly',
    async () => {
      const host = fork(
        fileURLToPath(new URL('./pglite-host.ts', import.meta.url)),
        [join(folder, 'orphaned')],
        {
          execArgv: ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href],
          stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        },
      );
      let stderr = '';
      host.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2_000)));
      const exited = new Promise<number | null>((resolve) => host.once('exit', (code) => resolve(code)));
      try {
        await new Promise<void>((resolve, reject) => {
          host.once('message', (message: { type: string }) =>
            message.type === 'ready' ? resolve() : reject(new Error(JSON.stringify(message))),
          );
        });
        // The server asks, then is gone before the answer: the reply is written to a closed channel.
        host.send({ id: 1, op: 'query', sql: 'SELECT pg_sleep(0.5)', params: [] });
        host.disconnect();
        expect(await exited, stderr).toBe(0);
      } finally {
        if (host.exitCode === null) host.kill('SIGKILL');
      }
    },
    HOSTED_DB_TIMEOUT_MS,
  );
});
