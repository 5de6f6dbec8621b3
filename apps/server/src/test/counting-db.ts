import type { Db, QueryOptions } from '../db';

/**
 * `db` with every statement its `query` sends noted in `statements` (in order), and the number of rows
 * each answered at the same place in `rows`, for tests that check what a piece of work asks the
 * database; everything else is `db`'s own.
 */
export function countingDb(db: Db): { db: Db; statements: string[]; rows: number[] } {
  const statements: string[] = [];
  const rows: number[] = [];
  const counted = Object.create(db) as Db;
  counted.query = async <T>(sql: string, params?: readonly unknown[], options?: QueryOptions) => {
    const index = statements.push(sql) - 1;
    const answer = await db.query<T>(sql, params, options);
    rows[index] = answer.length;
    return answer;
  };
  return { db: counted, statements, rows };
}
