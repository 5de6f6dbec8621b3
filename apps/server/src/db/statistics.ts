import type { Queryable } from './types';

/** PostgreSQL's autovacuum analyzes a table once this many of its rows changed, plus a tenth of them. */
const ANALYZE_THRESHOLD_ROWS = 50;
const ANALYZE_SCALE_FACTOR = 0.1;

/**
 * Gathers `table`'s statistics again after a write that changed `changedRows` of its rows, when that
 * is as many as PostgreSQL's autovacuum waits for (50 and a tenth of the rows it last counted). PGlite
 * runs no autovacuum, and PostgreSQL's may take a minute: meanwhile a table filled since its last
 * ANALYZE is planned as nearly empty (the zones search walked the owner's index and read all of their
 * 1,000 zones, at half the rate of a plain scan of them).
 */
export async function analyzeAfterWriting(db: Queryable, table: string, changedRows: number): Promise<void> {
  if (changedRows <= ANALYZE_THRESHOLD_ROWS) return;
  // reltuples: the rows ANALYZE (or VACUUM) last counted; -1 before the first.
  const [row] = await db.query<{ counted: number }>(
    'SELECT greatest(reltuples, 0)::float8 AS counted FROM pg_class WHERE oid = to_regclass($1)',
    [table],
  );
  if (changedRows > ANALYZE_THRESHOLD_ROWS + ANALYZE_SCALE_FACTOR * (row?.counted ?? 0))
    await db.exec(`ANALYZE ${table}`);
}
