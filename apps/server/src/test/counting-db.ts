import type { Db, QueryOptions } from '../db';

/**
 * `db` with every statement its `query` sends noted in `statements` (in order), for tests that check
 * what a piece of work asks the database; everything else is `db`'s own.
 */
export function countingDb(db: Db): { db: Db; statements: string[] } {
  const statements: string[] = [];
  const counted = Object.create(db) as Db;
  counted.query = <T>(sql: string, params?: readonly unknown[], options?: QueryOptions) => {
    statements.push(sql);
    return db.query<T>(sql, params, options);
  };
  return { db: counted, statements };
}
