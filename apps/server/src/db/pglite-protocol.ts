/**
 * The messages between the server and the process that hosts PGlite (pglite-host.ts). They travel over
 * Node's IPC channel with the 'advanced' serialization (structured clone), so rows keep their Dates,
 * numbers, parsed JSON and bytes.
 */
import { DataDirLockedError, type TakenOver } from './data-dir-lock';

export type { TakenOver };

export type HostRequest =
  | { id: number; op: 'query'; sql: string; params: unknown[]; reusePlan?: boolean; tx?: number }
  | { id: number; op: 'exec'; sql: string; tx?: number }
  | { id: number; op: 'copyIn'; target: string; rows: string; tx?: number }
  | { id: number; op: 'begin' }
  | { id: number; op: 'commit' | 'rollback'; tx: number }
  | { id: number; op: 'close' };

/** What a request needs besides its id (the caller numbers them). */
export type HostCall = HostRequest extends infer R ? (R extends HostRequest ? Omit<R, 'id'> : never) : never;

export type HostMessage =
  | { type: 'ready'; tookOver?: TakenOver }
  | { type: 'failed'; error: SerializedError }
  | { type: 'reply'; id: number; value?: unknown; error?: SerializedError };

/** An error's name, message and its plain fields (PostgreSQL's code, detail, constraint...). */
export interface SerializedError {
  name: string;
  message: string;
  [field: string]: string | number;
}

export function serializeError(err: unknown): SerializedError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) };
  const fields = Object.entries(err).filter(
    (entry): entry is [string, string | number] =>
      typeof entry[1] === 'string' || typeof entry[1] === 'number',
  );
  return { ...Object.fromEntries(fields), name: err.name, message: err.message };
}

/** The error again on the server's side, with the server's stack (where the query was made). */
export function deserializeError({ name, message, ...fields }: SerializedError): Error {
  if (name === 'DataDirLockedError') return new DataDirLockedError(String(fields.folder), Number(fields.pid));
  const err = Object.assign(new Error(message), fields);
  err.name = name;
  return err;
}
