import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Whether the work in progress is a read (a GET request, health included): its queries get the short
 * bound (`databaseReadTimeoutMs`), so a locked table or a stalled embedded database answers a 503 in
 * seconds; everything else (writes, jobs, migrations) keeps the longer one.
 */
const reading = new AsyncLocalStorage<true>();

/** Runs `work`, and everything it starts, as a read. */
export const runAsRead = <T>(work: () => T): T => reading.run(true, work);

export const isRead = (): boolean => reading.getStore() === true;

/** The bounds of a database's queries: the one that applies is the read's inside `runAsRead`. */
export interface QueryBounds {
  queryTimeoutMs?: number;
  readTimeoutMs?: number;
}

export const boundOf = ({ queryTimeoutMs, readTimeoutMs }: QueryBounds): number | undefined =>
  isRead() ? (readTimeoutMs ?? queryTimeoutMs) : queryTimeoutMs;
