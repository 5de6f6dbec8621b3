import { ERROR_STATUS, type ErrorBody, type ErrorCode } from '@guardian/contract';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { ZodError, ZodType } from 'zod';
import { cloudflareErrorToAppError } from './cloudflare/errors';
import { DatabaseUnavailableError } from './db';
import { AppError } from './app-error';

/**
 * The bounds of every error answer, whatever built it (validation, Cloudflare, Fastify): a message
 * and each of at most ERRORS_SHOWN entries of `errors` at most ERROR_MESSAGE_MAX characters, so an
 * error answer stays under about 12 KB however large the request or the upstream answer was.
 */
export const ERROR_MESSAGE_MAX = 1_000;
const ERRORS_SHOWN = 10;
/** Validation issues a message names; the rest are counted. */
const ISSUES_SHOWN = 10;
/** Path segments shown per issue (a deep value's path would otherwise be as long as its nesting). */
const PATH_SEGMENTS_SHOWN = 8;
const ERROR_CODE_MAX = 64;

/** Cut to `max` characters with an ellipsis, never between the two halves of a surrogate pair. */
export function boundedText(text: string, max = ERROR_MESSAGE_MAX): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

export function errorBody(code: string, message: string, errors?: ErrorBody['errors']): ErrorBody {
  const shown = boundedText(message);
  return {
    code,
    message: shown,
    errors: errors
      ? errors.slice(0, ERRORS_SHOWN).map((error) => ({
          ...(error.code === undefined
            ? {}
            : {
                code: typeof error.code === 'string' ? boundedText(error.code, ERROR_CODE_MAX) : error.code,
              }),
          message: boundedText(error.message),
          ...(error.field === undefined ? {} : { field: boundedText(error.field, ERROR_CODE_MAX) }),
        }))
      : [{ code, message: shown }],
  };
}

/** The request field an issue is about, as a dotted path (`filter.expression`), or undefined for the whole. */
function fieldOf(issue: ZodError['issues'][number]): string | undefined {
  if (issue.path.length === 0) return undefined;
  const path = issue.path.slice(0, PATH_SEGMENTS_SHOWN).map(String).join('.');
  return boundedText(`${path}${issue.path.length > PATH_SEGMENTS_SHOWN ? '…' : ''}`, ERROR_CODE_MAX);
}

/**
 * An issue as a person reads it: its message only. The contract's messages name their field in words
 * ('E-mail is too long.'); the field's key goes in `errors[].field`, for forms, never into the text.
 */
function describeIssue(issue: ZodError['issues'][number]): string {
  return issue.message;
}

/** The first issues of a validation as the body's `errors`, each with its field. */
export function zodErrorList(err: ZodError): ErrorBody['errors'] {
  return err.issues.slice(0, ISSUES_SHOWN).map((issue) => {
    const field = fieldOf(issue);
    return { code: 'BAD_REQUEST', message: issue.message, ...(field ? { field } : {}) };
  });
}

/** The first issues of a validation in one message, then how many more there are. */
export function describeZodError(err: ZodError): string {
  const more = err.issues.length - ISSUES_SHOWN;
  const counted = more > 0 ? ` And ${more} more.` : '';
  const shown = err.issues.slice(0, ISSUES_SHOWN).map(describeIssue).join(' ');
  return boundedText(shown, ERROR_MESSAGE_MAX - counted.length) + counted;
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
  if (err instanceof ZodError) {
    return new AppError('BAD_REQUEST', describeZodError(err), { errors: zodErrorList(err) });
  }
  if (err instanceof DatabaseUnavailableError) {
    // Away, or not answering within its bound (a lock, a stalled embedded database): seconds, usually.
    return new AppError('UNAVAILABLE', 'The database is unavailable. Please try again shortly.', {
      retryAfterSeconds: 5,
    });
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
 * Fastify hands an endpoint's body validator null when the request has no body, and Zod then says
 * "received null": checked again as what was sent (nothing), the message says "received undefined".
 */
function asSent(err: unknown, request: FastifyRequest): unknown {
  const context = (err as { validationContext?: unknown } | null)?.validationContext;
  if (!(err instanceof ZodError) || context !== 'body' || request.body !== undefined) return err;
  const schema = request.routeOptions.schema?.body;
  return (schema instanceof ZodType && schema.safeParse(undefined).error) || err;
}

/**
 * The one error handler: every failure becomes the contract's ErrorBody (a failed validation of an
 * endpoint's params, query or body arrives as Zod's ZodError, see endpoint-route.ts). A 5xx is logged in full with
 * the request id; the person only sees a short message.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    const answer = answerFor(asSent(err, request));
    if (isDataException(err))
      request.log.warn({ err }, 'The database refused a value that validation let through');
    if (answer.status === 500) request.log.error({ err }, 'Request failed');
    else if (answer.status >= 500) request.log.warn({ err }, 'Request failed: a dependency is unavailable');
    if (answer.retryAfterSeconds !== undefined) reply.header('retry-after', String(answer.retryAfterSeconds));
    return reply.code(answer.status).send(answer.body);
  });
}
