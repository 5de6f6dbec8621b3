/**
 * Statements run as named prepared statements, one per SQL text (host side, see pglite-host.ts).
 * PGlite's own `query` parses and describes every statement anew, in six calls into WebAssembly; here
 * a statement is prepared once (Parse, Describe) and each run is one call (Bind, Execute, Sync), still
 * planned with its values (plan_cache_mode, pglite-host.ts), unless the caller asks for its plan to be
 * reused (`reusePlan`). Rows are parsed by PGlite's own parseResults with the instance's parsers, and
 * parameters serialised as PGlite's `query` does, so the rows and errors are those of
 * `pglite.query(sql, params).rows`.
 */
import { messages, parse, protocol, type PGlite } from '@electric-sql/pglite';
// lru-cache (used across the server): a bounded map whose evictions tell us what to Close.
import { LRUCache } from 'lru-cache';

type BackendMessage = messages.BackendMessage;
const { serialize } = protocol;

interface Statement {
  name: string;
  /** The parameters' types, from Describe: how each parameter is serialised. */
  paramTypes: number[];
  /** Its RowDescription (absent for a statement without rows): Execute's rows come without one. */
  description: BackendMessage | undefined;
}

/** A cached statement whose result columns changed, or that is gone (DEALLOCATE ALL, DISCARD). */
const STALE_STATEMENT = new Set(['0A000', '26000']);
/** Statements that may change the result columns of cached statements. */
const SCHEMA_CHANGES = new Set(['CREATE', 'ALTER', 'DROP']);
/**
 * Sent around a statement whose plan is reused: PostgreSQL picks a cached plan at Bind by this
 * setting (a generic plan, made once, instead of the custom plan for each run that the host's start
 * setting asks for, which RESET restores). The three run as one implicit transaction, so a failure
 * also undoes the SET; in an explicit transaction, its rollback does.
 */
const GENERIC_PLANS = 'SET plan_cache_mode = force_generic_plan';
const CUSTOM_PLANS = 'RESET plan_cache_mode';

function concat(parts: Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
}

/** The fields PGlite's `query` adds to the DatabaseError it throws. */
function asQueryError(err: unknown, sql: string, params: unknown[]): unknown {
  if (err instanceof messages.DatabaseError) {
    Object.assign(err, { query: sql, params, queryOptions: undefined });
  }
  return err;
}

export class PreparedStatements {
  private readonly cache: LRUCache<string, Statement>;
  /** Evicted statements, closed before the next Parse. */
  private readonly unused: string[] = [];
  private nextName = 1;
  private settings: Promise<{ generic: Statement; custom: Statement }> | undefined;

  constructor(
    private readonly pglite: PGlite,
    max = 500,
  ) {
    this.cache = new LRUCache({ max, dispose: (statement) => this.unused.push(statement.name) });
  }

  /** Forgets every statement (after a script that may have changed tables). */
  clear(): void {
    this.cache.clear();
  }

  /**
   * `pglite.query(sql, params).rows`. `tx`: inside one of PGlite's transactions (whose callback holds
   * the transaction lock); else this waits for PGlite's transactions like `pglite.query`.
   */
  async query(sql: string, params: unknown[], tx: boolean, reusePlan = false): Promise<unknown[]> {
    await this.pglite._checkReady();
    const run = () => this.pglite._runExclusiveQuery(() => this.run(sql, params, tx, reusePlan));
    return tx ? run() : this.pglite._runExclusiveTransaction(run);
  }

  private async run(sql: string, params: unknown[], tx: boolean, reusePlan: boolean): Promise<unknown[]> {
    let rows: unknown[];
    try {
      rows = await this.execute(sql, params, reusePlan);
    } catch (err) {
      // Outside a transaction nothing was aborted: prepare it again, once.
      if (tx || !(err instanceof messages.DatabaseError) || !STALE_STATEMENT.has(err.code ?? '')) {
        throw asQueryError(err, sql, params);
      }
      this.cache.delete(sql);
      try {
        rows = await this.execute(sql, params, reusePlan);
      } catch (retryErr) {
        throw asQueryError(retryErr, sql, params);
      }
    }
    // Within a transaction PGlite syncs the files at COMMIT.
    if (!tx) await this.pglite.syncToFs();
    return rows;
  }

  private async execute(sql: string, params: unknown[], reusePlan: boolean): Promise<unknown[]> {
    const statement = this.cache.get(sql) ?? (await this.prepare(sql));
    const values = params.map((value, index) => {
      if (value === null || value === undefined) return null;
      const serializer = this.pglite.serializers[statement.paramTypes[index]!];
      return serializer ? serializer(value) : String(value);
    });
    const run = (name: string, bindValues: (string | null)[] = []) => [
      serialize.bind({ statement: name, values: bindValues }),
      serialize.execute({}),
    ];
    const settings = reusePlan ? await this.planSettings() : undefined;
    let replies: BackendMessage[];
    try {
      replies = await this.pglite.execProtocolStream(
        concat([
          ...(settings ? run(settings.generic.name) : []),
          ...run(statement.name, values),
          ...(settings ? run(settings.custom.name) : []),
          serialize.sync(),
        ]),
        { syncToFs: false },
      );
    } catch (err) {
      if (err instanceof messages.DatabaseError && STALE_STATEMENT.has(err.code ?? '')) {
        this.cache.delete(sql);
        // They may be what is gone (DEALLOCATE ALL): prepared again next time, these closed (a Close
        // of a statement that no longer exists is no error).
        if (settings) {
          this.unused.push(settings.generic.name, settings.custom.name);
          this.settings = undefined;
        }
      }
      throw err;
    }
    // The statement's own replies: between the first SET's and the second SET's BindComplete.
    if (settings) {
      const binds = replies.flatMap((reply, index) => (reply.name === 'bindComplete' ? [index] : []));
      replies = replies.slice(binds[1], binds[2]);
    }
    const [result] = parse.parseResults(
      statement.description ? [statement.description, ...replies] : replies,
      this.pglite.parsers,
    );
    if (result?.command && SCHEMA_CHANGES.has(result.command)) this.clear();
    return result?.rows ?? [];
  }

  /**
   * The two SETs around a statement whose plan is reused, prepared once and kept apart from the cache
   * (they read no table, so a script's `clear` leaves them).
   */
  private planSettings(): Promise<{ generic: Statement; custom: Statement }> {
    this.settings ??= (async () => ({
      generic: await this.prepare(GENERIC_PLANS, false),
      custom: await this.prepare(CUSTOM_PLANS, false),
    }))().catch((err: unknown) => {
      this.settings = undefined;
      throw err;
    });
    return this.settings;
  }

  /** Parse and Describe in one call (with the Close of evicted statements), Sync always sent. */
  private async prepare(sql: string, cached = true): Promise<Statement> {
    const name = `guardian_${this.nextName++}`;
    const closes = this.unused.splice(0).map((unused) => serialize.close({ type: 'S', name: unused }));
    const replies = await this.pglite.execProtocolStream(
      concat([
        ...closes,
        serialize.parse({ name, text: sql }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const statement: Statement = {
      name,
      paramTypes: parse.parseDescribeStatementResults(replies),
      description: replies.find((reply) => reply.name === 'rowDescription'),
    };
    if (cached) this.cache.set(sql, statement);
    return statement;
  }
}
