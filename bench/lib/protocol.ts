/** Messages between the benchmark (parent) and bench/lib/server-child.ts. */

export interface QueryCounts {
  /** Database round trips (a transaction's BEGIN and COMMIT count one each). */
  total: number;
  /** The auth guard's user lookups (one per authenticated request). */
  auth: number;
  transactions: number;
  /** Statements by their first 160 characters, for the diagnosis of a budget that fails. */
  bySql: Record<string, number>;
  /** Milliseconds the server waited on each statement (overlapping waits add up). */
  msBySql: Record<string, number>;
}

export type ParentMessage = { id: number } & (
  | { type: 'createUser'; level?: number }
  | { type: 'resetQueries' }
  | { type: 'queries' }
  | { type: 'routes' }
  | { type: 'memory' }
  | { type: 'sql'; sql: string; params?: unknown[] }
  | { type: 'explain'; match?: string }
  | { type: 'caches'; enabled: boolean }
  | { type: 'stop' }
);

export type ChildMessage =
  | { type: 'ready'; port: number; database: 'pglite' | 'postgres'; schema: string | null }
  | { type: 'failed'; error: string }
  | { type: 'reply'; id: number; value?: unknown; error?: string };

/** What the baseline serves for one URL: the server's answer, body and headers. */
export interface BareAnswer {
  body: string;
  headers: Record<string, string>;
}
