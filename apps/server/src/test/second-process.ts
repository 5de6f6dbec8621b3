import type { FastifyInstance } from 'fastify';
import { buildApp, createAppDeps } from '../app';
import { createDb, type Db } from '../db';
import type { TestContext } from './context';

/**
 * What a second server process on the test's database has: on PostgreSQL its own pool on the same
 * schema. PGlite is embedded in one process, so there it is the test's own database.
 */
export async function secondProcessDb(ctx: TestContext): Promise<Db> {
  if (ctx.db.kind !== 'postgres') return ctx.db;
  const [row] = await ctx.db.query<{ schema: string }>('SELECT current_schema() AS schema');
  return createDb(ctx.config, { schema: row!.schema });
}

export interface SecondProcess {
  db: Db;
  /** An app of its own on `db` (its own list locks and Cloudflare clients); the test's app on PGlite. */
  app: FastifyInstance;
  /** Closes what is its own. */
  close(): Promise<void>;
}

/** A second server process on the test's database (see `secondProcessDb`), its app ready. */
export async function secondProcess(ctx: TestContext): Promise<SecondProcess> {
  const db = await secondProcessDb(ctx);
  if (db === ctx.db) return { db, app: ctx.app, close: async () => {} };
  const app = await buildApp(ctx.config, createAppDeps(ctx.config, db));
  await app.ready();
  return {
    db,
    app,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}
