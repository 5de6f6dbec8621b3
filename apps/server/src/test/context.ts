import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { decodeJwt, SignJWT } from 'jose';
import { buildApp, createAppDeps } from '../app';
import type { AppDeps } from '../deps';
import { loadConfig, type Config } from '../config';
import { createDb, runMigrations, type Db } from '../db';
import { MIGRATION_LOCK_ID } from '../db/migrate';
import { openSession } from '../modules/auth';
import { passwordStamp } from '../modules/users';
import { UsersRepository } from '../modules/users';
import { UsersService } from '../modules/users';

export interface TestUser {
  id: number;
  email: string;
  password: string;
  level: number;
  /** The token of an open session of this user. */
  token: string;
  /** That session's id (the token's `sid`), for a test token of the same session. */
  sessionId: string;
  /** `{ authorization: 'Bearer <token>' }`, ready for `app.inject({ headers })`. */
  headers: { authorization: string };
}

export interface TestContext {
  config: Config;
  db: Db;
  /** Built and ready; call it with `app.inject`. */
  app: FastifyInstance;
  /** A user with a fresh e-mail (default level 1); pass `level: 0` for an administrator. */
  createUser(options?: {
    email?: string;
    password?: string;
    level?: number;
    disabled?: boolean;
  }): Promise<TestUser>;
  /**
   * A second app on the same database whose calls wait only `waitMs` for the jobs they start, so a
   * job answers 202 at will; ready, and closed with the context.
   */
  impatientApp(waitMs: number): Promise<FastifyInstance>;
  /** Closes the app and the database, and drops the PostgreSQL schema. */
  close(): Promise<void>;
}

export interface TestContextOptions {
  config?: Partial<Config>;
  /** Extra dependencies for buildApp (e.g. a Cloudflare gateway pointing at the sandbox). */
  deps?: Partial<Omit<AppDeps, 'db'>>;
  /** Runs before the app is ready, e.g. to add a route that a test needs. */
  setup?: (app: FastifyInstance) => void | Promise<void>;
}

/** Which database the suite runs on: the root vitest config sets TEST_DB per project. */
function testDatabaseUrl(): string | undefined {
  if (process.env.TEST_DB !== 'postgres') return undefined;
  const url = process.env.DATABASE_URL;
  if (!url)
    throw new Error('TEST_DB=postgres needs DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test');
  return url;
}

/**
 * On PostgreSQL each context works in its own schema (`t_<random>`, first on every pooled
 * connection's search_path), so tests and parallel files never see each other's rows. pg_trgm is
 * installed once in `public`, where every schema finds it and no schema drop can remove it.
 */
async function openTestDb(config: Config): Promise<{ db: Db; dropSchema?: () => Promise<void> }> {
  if (!config.databaseUrl) return { db: await createDb(config) };
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const db = await createDb(config, { schema });
  await db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
    await tx.exec(`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public; CREATE SCHEMA ${schema};`);
  });
  return { db, dropSchema: () => db.exec(`DROP SCHEMA ${schema} CASCADE`) };
}

export interface TestTokenOptions {
  /** The key: the server's `jwtSecret` for a valid token, anything else for a forged one. */
  secret: string | Uint8Array;
  alg?: string;
  /** Seconds since the epoch; now and an hour from now by default. */
  iat?: number;
  exp?: number;
  /** The session named in the token (`sid`): a test user's `sessionId` for one the server knows. */
  sessionId?: string;
  /** Claims beyond (or instead of) the user's email and level. */
  claims?: Record<string, unknown>;
}

/** A session token for `user` made the way a test needs it: another key, algorithm, time or claims. */
export function signTestToken(
  user: { id: number; email: string; level: number },
  { secret, alg = 'HS256', iat, exp, sessionId = randomUUID(), claims = {} }: TestTokenOptions,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sid: sessionId, email: user.email, level: user.level, ...claims })
    .setProtectedHeader({ alg, typ: 'JWT' })
    .setSubject(String(user.id))
    .setIssuedAt(iat ?? now)
    .setExpirationTime(exp ?? now + 3600)
    .sign(typeof secret === 'string' ? new TextEncoder().encode(secret) : secret);
}

/** The database read bound of test contexts (production: 5 s). */
const TEST_READ_TIMEOUT_SECONDS = 60;

let userCounter = 0;

/**
 * A migrated database and a built app, for one test file or one test:
 *
 *   let ctx: TestContext;
 *   beforeAll(async () => (ctx = await createTestContext()));
 *   afterAll(() => ctx.close());
 */
export async function createTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  const config: Config = {
    ...loadConfig({
      GUARDIAN_MODE: 'test',
      DATABASE_URL: testDatabaseUrl(),
      // A read answers 503 past this bound. On a loaded CI machine (load 20 on 2 cores seen) the 5 s of
      // production made tests that assert a read's answer fail; tests of the bound set their own.
      GUARDIAN_DATABASE_READ_TIMEOUT_SECONDS: String(TEST_READ_TIMEOUT_SECONDS),
    }),
    ...options.config,
  };
  const { db, dropSchema } = await openTestDb(config);
  await runMigrations(db);
  const app = await buildApp(config, createAppDeps(config, db, options.deps));
  await options.setup?.(app);
  await app.ready();
  const repository = new UsersRepository(db);
  const users = new UsersService(repository, config.passwordHashing);
  const otherApps: FastifyInstance[] = [];

  return {
    config,
    db,
    app,
    async createUser({ email, password = 'correct horse battery', level = 1, disabled = false } = {}) {
      userCounter += 1;
      const user = await users.create({ email: email ?? `user${userCounter}@example.com`, password, level });
      // The session opens before disabling, as the user signed in before they were disabled.
      const { passwordHash } = (await repository.findByIdWithPasswordHash(user.id))!;
      const token = await openSession(repository, user, passwordStamp(passwordHash), config);
      if (disabled) await users.setDisabled(user.email, true);
      return {
        id: user.id,
        email: user.email,
        password,
        level,
        token,
        sessionId: decodeJwt(token).sid as string,
        headers: { authorization: `Bearer ${token}` },
      };
    },
    async impatientApp(waitMs) {
      const impatientConfig = { ...config, jobs: { ...config.jobs, waitMs } };
      const impatient = await buildApp(impatientConfig, createAppDeps(impatientConfig, db, options.deps));
      otherApps.push(impatient);
      await impatient.ready();
      return impatient;
    },
    async close() {
      for (const other of otherApps) await other.close();
      await app.close();
      await dropSchema?.();
      await db.close();
    },
  };
}
