import type PgBoss from 'pg-boss';
import { PLANNED_ONCE, type Queryable } from '../db';

/** PGlite refuses a script of several statements through the extended protocol that parameters need. */
const MULTIPLE_COMMANDS = /multiple commands/i;

/**
 * pg-boss's database, as the app's own `Db` (pg-boss issue #563 shows the idea for PGlite): one pool
 * (PostgreSQL) or the one embedded database's process (PGlite) for the app and its queue. pg-boss
 * sends its schema and maintenance as scripts without parameters (`BEGIN; ...; COMMIT;`), whose rows
 * it does not read: those go through `exec` when the database will not take them as one query.
 */
export function pgBossDb(db: Queryable): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      // pg-boss's statements find jobs by id or queue name: their plans are made once (QueryOptions).
      if (values.length > 0) return { rows: await db.query(text, values, PLANNED_ONCE) };
      try {
        const rows = await db.query(text);
        // pg answers a script with one result per statement; pg-boss reads no rows from scripts.
        return { rows: Array.isArray(rows) ? rows : [] };
      } catch (err) {
        if (!(err instanceof Error) || !MULTIPLE_COMMANDS.test(err.message)) throw err;
        await db.exec(text);
        return { rows: [] };
      }
    },
  };
}
