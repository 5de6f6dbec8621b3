import type { ErrorCode } from '@guardian/contract';
import { AppError } from '../app-error';
import { cloudflareErrorToAppError } from '../cloudflare';
import { DatabaseUnavailableError } from '../db';

/**
 * A statement past its time limit: cancelled by PostgreSQL (`statement_timeout`, SQLSTATE 57014), or
 * not answered within the query bound (node-postgres' read timeout, the embedded database's wait).
 * The database answered other statements: a long job step is not an unreachable database.
 */
function isStatementPastLimit(err: unknown): boolean {
  const failure = err instanceof DatabaseUnavailableError ? err.cause : err;
  if (!(failure instanceof Error)) return false;
  return (
    (failure as { code?: unknown }).code === '57014' ||
    /Query read timeout|did not answer within/.test(failure.message)
  );
}

/** The AppError a failure is to a person (Cloudflare's refusals worded as the API words them). */
function asAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  if (isStatementPastLimit(err)) {
    return new AppError(
      'UNAVAILABLE',
      'A database statement took longer than its time limit, so Guardian stopped waiting and this work did not finish. Please try again; if it happens again, tell your administrator.',
    );
  }
  if (err instanceof DatabaseUnavailableError)
    return new AppError('UNAVAILABLE', 'The database could not be reached.');
  return cloudflareErrorToAppError(err);
}

/** What a failed job shows: the reason as the API would say it, never a stack or internal detail. */
export function jobErrorInWords(err: unknown): string {
  const appError = asAppError(err);
  if (appError) return appError.message;
  return 'Something went wrong on the server while doing this. Please try again.';
}

/** The error code the API would have answered (kept with a failed job, for a caller that waited on it). */
export function jobErrorCode(err: unknown): ErrorCode {
  return asAppError(err)?.code ?? 'INTERNAL';
}

/** The Retry-After the API would have sent with it (kept with a failed job, like its code). */
export function jobErrorRetryAfter(err: unknown): number | undefined {
  return asAppError(err)?.details.retryAfterSeconds;
}

/** A refusal to wait out longer than this is not retried by the queue: it fails, saying when it frees up. */
const LONGEST_RETRY_WAIT_SECONDS = 60;

/**
 * Whether another run may succeed: Cloudflare busy or unavailable (429, 5xx, time-outs), the
 * account's list-write turn not free yet (409 from the lease), the database away. A refusal
 * (not found, a revoked token, a bad value) would fail again: it fails at once.
 */
export function isRetryable(err: unknown): boolean {
  const appError = asAppError(err);
  if (!appError) return false;
  // The Lists write budget frees up in hours, not at the next retry.
  if ((appError.details.retryAfterSeconds ?? 0) > LONGEST_RETRY_WAIT_SECONDS) return false;
  return ['RATE_LIMITED', 'UPSTREAM', 'UNAVAILABLE', 'CONFLICT'].includes(appError.code);
}
