import { migrations as allMigrations, type Migration } from './migrations';
import type { Db } from './types';

/** Advisory lock key of migrations: two processes starting together apply them once. */
export const MIGRATION_LOCK_ID = 461_712_001;

/**
 * Applies the migrations not yet recorded in schema_migrations, in order, all in one transaction: a
 * failing migration leaves the database as it was. Returns the names applied.
 */
export async function runMigrations(
  db: Db,
  migrations: readonly Migration[] = allMigrations,
): Promise<string[]> {
  return db.transaction(async (tx) => {
    if (db.kind === 'postgres') await tx.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
    // pg_trgm backs the trigram indexes that make searching 500,000 ban list items fast.
    await tx.exec(`
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
      CREATE TABLE IF NOT EXISTS schema_migrations (
        name text PRIMARY KEY,
        applied_at timestamptz NOT NULL DEFAULT now()
      );
    `);
    const applied = new Set(
      (await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).map((row) => row.name),
    );
    const pending = migrations.filter((migration) => !applied.has(migration.name));
    for (const migration of pending) {
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [migration.name]);
    }
    return pending.map((migration) => migration.name);
  });
}
