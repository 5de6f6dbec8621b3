import type { Queryable, QueryOptions } from '../db';

type PlanNode = Record<string, unknown>;

/**
 * Rows a plan's scans read (index entries and table rows, returned and filtered out, over every loop):
 * scans of a table or an index, not of a subquery's or a CTE's rows already read.
 */
function rowsScanned(node: PlanNode): number {
  const own =
    'Relation Name' in node || 'Index Name' in node
      ? (Number(node['Actual Rows'] ?? 0) + Number(node['Rows Removed by Filter'] ?? 0)) *
        Number(node['Actual Loops'] ?? 1)
      : 0;
  const children = (node.Plans as PlanNode[] | undefined) ?? [];
  return own + children.reduce((sum, child) => sum + rowsScanned(child), 0);
}

/**
 * The statement's plan (EXPLAIN, FORMAT JSON; with `analyze`, run and measured): its top node. PGlite
 * answers the JSON as text, PostgreSQL parsed.
 */
async function planOf(
  db: Queryable,
  sql: string,
  params: readonly unknown[] = [],
  options: { analyze: boolean } = { analyze: false },
): Promise<PlanNode> {
  const [row] = await db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] | string }>(
    `EXPLAIN (${options.analyze ? 'ANALYZE, ' : ''}FORMAT JSON) ${sql}`,
    params,
  );
  const text = row!['QUERY PLAN'];
  const plan = (typeof text === 'string' ? JSON.parse(text) : text) as [{ Plan: PlanNode }];
  return plan[0].Plan;
}

/**
 * The rows the statement's scans read when run (EXPLAIN ANALYZE, FORMAT JSON): what a test of a plan
 * holds, whichever plan the database picks. The statement runs: explain a write in a transaction
 * that is rolled back.
 */
export async function rowsScannedBy(
  db: Queryable,
  sql: string,
  params: readonly unknown[] = [],
): Promise<number> {
  return rowsScanned(await planOf(db, sql, params, { analyze: true }));
}

/** The rows the planner expects the statement to answer (EXPLAIN's estimate; the statement does not run). */
export async function rowsEstimatedFor(
  db: Queryable,
  sql: string,
  params: readonly unknown[] = [],
): Promise<number> {
  return Number((await planOf(db, sql, params))['Plan Rows']);
}

/** A statement as a repository sent it, with its values. */
export interface SentStatement {
  sql: string;
  params: readonly unknown[];
}

/**
 * `db` with a recorder on it: a repository built on the answer's `db` runs as on `db` itself, and
 * `last()` is the statement it sent last, to explain as it was sent.
 */
export function recordingStatements<D extends Queryable>(db: D): { db: D; last: () => SentStatement } {
  let sent: SentStatement | undefined;
  const recording = Object.create(db) as D;
  (recording as Queryable).query = <T>(
    sql: string,
    params: readonly unknown[] = [],
    options?: QueryOptions,
  ) => {
    sent = { sql, params };
    return db.query<T>(sql, params, options);
  };
  return {
    db: recording,
    last: () => {
      if (!sent) throw new Error('No statement was sent.');
      return sent;
    },
  };
}
