import { ERROR_STATUS, type ErrorBody, type ErrorCode } from '@guardian/contract';

export interface AppErrorDetails {
  /** The body's `errors` list when it should say more than the message (e.g. Cloudflare's own errors). */
  errors?: ErrorBody['errors'];
  /** Sent as the Retry-After header (seconds). */
  retryAfterSeconds?: number;
  /** The underlying failure: logged with 5xx answers, never sent. */
  cause?: unknown;
}

/** An error a person can act on, thrown anywhere: `throw new AppError('NOT_FOUND', 'Zone not found.')`. */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: AppErrorDetails = {},
  ) {
    super(message, { cause: details.cause });
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}
