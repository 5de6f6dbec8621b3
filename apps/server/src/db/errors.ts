/**
 * The database cannot be reached (down, restarting, network) or did not answer within its bound (a
 * locked table, a stalled embedded database): the request may succeed shortly.
 */
export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The database is unavailable.', { cause });
    this.name = 'DatabaseUnavailableError';
  }
}

// Socket errors, PostgreSQL's "connection exception" class 08 and its shutdown/startup codes.
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01',
  '57P02',
  '57P03',
]);

// node-postgres reports a dropped or timed-out connection only in the message.
const CONNECTION_ERROR_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is closed|Query read timeout/i;

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** PostgreSQL cancelled the statement at its `statement_timeout` (SQLSTATE 57014): a read's bound. */
export function isStatementTimeout(err: unknown): boolean {
  return errorCode(err) === '57014';
}

export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = errorCode(err);
  if (code && (CONNECTION_ERROR_CODES.has(code) || code.startsWith('08'))) return true;
  if (err instanceof AggregateError && err.errors.some(isConnectionError)) return true;
  return CONNECTION_ERROR_MESSAGE.test(err.message);
}

/** A unique index refused the row (SQLSTATE 23505), e.g. an e-mail that is already taken. */
export function isUniqueViolation(err: unknown): boolean {
  return errorCode(err) === '23505';
}
