import { ERROR_STATUS, type ErrorBody, type ErrorCode } from '@guardian/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import { cloudflareErrorToAppError } from './cloudflare/errors';
import { DatabaseUnavailableError } from './db';

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

export function errorBody(code: string, message: string, errors?: ErrorBody['errors']): ErrorBody {
  return { code, message, errors: errors ?? [{ code, message }] };
}

export function describeZodError(err: ZodError): string {
  return err.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join(' ');
}

// Fastify's wording is written for developers; these are for the person reading the message.
const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type: send the body as application/json.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body does not match its Content-Length.',
};

const STATUS_CODES = new Map<number, ErrorCode>(
  Object.entries(ERROR_STATUS).map(([code, status]) => [status, code as ErrorCode]),
);

/** Fastify's own 4xx errors (bad JSON, body too large, wrong content type) keep their status. */
function isClientError(err: unknown): err is FastifyError & { statusCode: number } {
  const status = (err as Partial<FastifyError> | null)?.statusCode;
  return err instanceof Error && typeof status === 'number' && status >= 400 && status < 500;
}

interface ErrorAnswer {
  status: number;
  body: ErrorBody;
  retryAfterSeconds?: number;
}

/**
 * PostgreSQL's class 22 "data exception" (a value that is not a number, out of range, too long, a
 * character the encoding cannot hold): a value from the request that validation let through. It is
 * the person's input, so a 400; it is still logged, because validation should have caught it.
 */
function isDataException(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Error && typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

function toAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  if (err instanceof ZodError) return new AppError('BAD_REQUEST', describeZodError(err));
  if (err instanceof DatabaseUnavailableError) {
    return new AppError('UNAVAILABLE', 'The database is unavailable. Please try again shortly.');
  }
  if (isDataException(err)) {
    return new AppError('BAD_REQUEST', 'The request contains a value that cannot be stored or looked up.', {
      cause: err,
    });
  }
  return cloudflareErrorToAppError(err);
}

function answerFor(err: unknown): ErrorAnswer {
  const appError = toAppError(err);
  if (appError) {
    return {
      status: appError.status,
      body: errorBody(appError.code, appError.message, appError.details.errors),
      retryAfterSeconds: appError.details.retryAfterSeconds,
    };
  }
  if (isClientError(err)) {
    const code = STATUS_CODES.get(err.statusCode) ?? 'BAD_REQUEST';
    return { status: err.statusCode, body: errorBody(code, FASTIFY_MESSAGES[err.code] ?? err.message) };
  }
  return { status: 500, body: errorBody('INTERNAL', 'Internal server error.') };
}

/**
 * The one error handler: every failure becomes the contract's ErrorBody. A 5xx is logged in full with
 * the request id; the person only sees a short message.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    const answer = answerFor(err);
    if (isDataException(err))
      request.log.warn({ err }, 'The database refused a value that validation let through');
    if (answer.status === 500) request.log.error({ err }, 'Request failed');
    else if (answer.status >= 500) request.log.warn({ err }, 'Request failed: a dependency is unavailable');
    if (answer.retryAfterSeconds !== undefined) reply.header('retry-after', String(answer.retryAfterSeconds));
    return reply.code(answer.status).send(answer.body);
  });
}
