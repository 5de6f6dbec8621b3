/**
 * What repositories use. Rows come back as T with the same JavaScript types on PGlite and PostgreSQL:
 * int8 (bigint ids, count(*)) as number, date as 'YYYY-MM-DD', timestamptz as Date, numeric as string,
 * json/jsonb parsed.
 */
export interface QueryOptions {
  /**
   * The statement's best plan does not depend on its values (no LIKE prefix, no partition to prune
   * at planning): plan it once and reuse the plan. For statements run on every job (the queue's own):
   * PGlite spends milliseconds planning each run; the default plans every run with its values.
   */
  reusePlan?: boolean;
  /**
   * A read every page asks for (its text one of a few the code writes, never built from values): parsed
   * once per connection, planned as the database chooses from its runs (PostgreSQL's plan_cache_mode
   * auto: with its values, or one plan reused when that is as good). PGlite parses every statement
   * once already (pglite-statements.ts); there it changes nothing.
   */
  prepared?: boolean;
}

/** The options of a statement whose plan does not depend on its values (see `reusePlan`). */
export const PLANNED_ONCE: QueryOptions = { reusePlan: true };

/** The options of a read asked for by every page (see `prepared`). */
export const PREPARED: QueryOptions = { prepared: true };

export interface Queryable {
  /** One statement with $1, $2... parameters. */
  query<T = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<T[]>;
  /** A script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Appends rows to `target` (`table (column, ...)`) with COPY: `rows` in COPY's text format
   * (copy-text.ts). Loads a bulk of rows for a fraction of an INSERT's work per row.
   */
  copyIn(target: string, rows: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. Inside, use
   * only `tx` (on PGlite a query on the Db itself would wait for the transaction to end: a deadlock).
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The subset of pino's logger the database layer reports through. */
export interface DbLogger {
  warn(details: object, message: string): void;
}
