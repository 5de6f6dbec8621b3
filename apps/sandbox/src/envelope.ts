/** Cloudflare's response envelope and the error type every route throws. */

export interface ResponseInfo {
  code: number;
  message: string;
  source?: { pointer: string };
  error_chain?: ResponseInfo[];
}

/** Rulesets errors may omit `code` (the OpenAPI `rulesets_Message` makes it optional). */
export interface RulesetsMessage {
  code?: number;
  message: string;
  source?: { pointer: string };
}

export interface Envelope<T> {
  success: boolean;
  errors: (ResponseInfo | RulesetsMessage)[];
  messages: ResponseInfo[];
  result: T;
  result_info?: object;
}

export function ok<T>(result: T, resultInfo?: object, messages: ResponseInfo[] = []): Envelope<T> {
  const body: Envelope<T> = { success: true, errors: [], messages, result };
  if (resultInfo) body.result_info = resultInfo;
  return body;
}

/** Thrown anywhere in a handler; the error handler turns it into Cloudflare's failure envelope. */
export class CloudflareError extends Error {
  readonly status: number;
  readonly errors: (ResponseInfo | RulesetsMessage)[];
  readonly messages: ResponseInfo[];
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    errors: (ResponseInfo | RulesetsMessage)[],
    options: { messages?: ResponseInfo[]; headers?: Record<string, string> } = {},
  ) {
    super(errors[0]?.message ?? 'Cloudflare error');
    this.status = status;
    this.errors = errors;
    this.messages = options.messages ?? [];
    this.headers = options.headers ?? {};
  }

  body(): Envelope<null> {
    return { success: false, errors: this.errors, messages: this.messages, result: null };
  }
}

export function fail(status: number, code: number, message: string, chain?: ResponseInfo[]): CloudflareError {
  const error: ResponseInfo = { code, message };
  if (chain) error.error_chain = chain;
  return new CloudflareError(status, [error]);
}

/** Cloudflare's answer for an object id it cannot route to (unknown or malformed zone/account id). */
export function noRoute(path: string): CloudflareError {
  return new CloudflareError(404, [
    { code: 7003, message: `Could not route to ${path}, perhaps your object identifier is invalid?` },
    { code: 7000, message: 'No route for that URI' },
  ]);
}

export const authenticationError = (status: 401 | 403 = 403): CloudflareError =>
  fail(status, 10000, 'Authentication error');

/** Cloudflare timestamps: ISO 8601 with microseconds, e.g. 2014-01-01T05:20:00.123456Z. */
export function timestamp(date: Date = new Date()): string {
  return date.toISOString().replace('Z', '000Z');
}
