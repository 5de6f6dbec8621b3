import type { z } from 'zod';
import {
  OUTCOME_HEADER,
  pathOf,
  TWO_FACTOR_SETUP_REQUIRED,
  type Endpoint,
  type ErrorBody,
} from '@guardian/contract';
import { clearToken, getToken, tokenOwner } from './auth-token';

const API_BASE = '/api';
/** The calls made without a token (sign-in and its second step); a 401 means wrong credentials, not an expired session. */
const LOGIN_PATH = '/login';
const isSignInPath = (path: string) => path === LOGIN_PATH || path.startsWith(`${LOGIN_PATH}/`);

/** Any failed call: `status` 0 means no response arrived (network down, server unreachable). */
export class ApiError extends Error {
  readonly status: number;
  /** The server's error body when it has the contract's shape, else null. */
  readonly body: ErrorBody | null;
  /** The `message` the server sent, if any: the text the spec shows a person. */
  readonly serverMessage: string | null;
  /** A body that is not JSON (a proxy's error page), as short plain text; null otherwise. */
  readonly bodyText: string | null;

  constructor(
    status: number,
    body: ErrorBody | null,
    serverMessage: string | null,
    message: string,
    bodyText: string | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.serverMessage = serverMessage;
    this.bodyText = bodyText;
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

/**
 * The text to show for a failed call: the server's own message when it sent one, else the screen's
 * fallback (spec section 8 names a fallback per screen).
 */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
}

/**
 * The text for a failed action: the spec's words for it, then the server's reason when it sent one
 * ("Failed to sync zones. Cloudflare is rate limiting this account..."), so every family reads the same.
 */
export function actionErrorMessage(error: unknown, specText: string): string {
  return error instanceof ApiError && error.serverMessage ? `${specText} ${error.serverMessage}` : specText;
}

type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  /** Appended as ?key=value; null and undefined values are left out. */
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
}

/** `owner`: the user id of the session that ended (see LoginRedirect), null when it was unreadable. */
type UnauthorizedHandler = (owner: string | null) => void;

let onUnauthorized: UnauthorizedHandler = () => window.location.assign('/login');

/** The router registers how to go to /login without a full page load. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

let onTwoFactorSetupRequired: () => void = () => window.location.assign('/two-factor/setup');

/** The router registers how to send a person whom an administrator requires to turn on two-factor. */
export function setTwoFactorSetupHandler(handler: () => void): void {
  onTwoFactorSetupRequired = handler;
}

let onOutcome: (message: string) => void = () => undefined;

/** The toaster registers how to tell the person a write's outcome that the server had to find out. */
export function setOutcomeHandler(handler: (message: string) => void): void {
  onOutcome = handler;
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== null && value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return `${API_BASE}${path}${search ? `?${search}` : ''}`;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Checked by hand rather than with the contract's zod schema, so zod stays out of the login page's bundle.
 */
function isErrorBody(data: unknown): data is ErrorBody {
  if (typeof data !== 'object' || data === null) return false;
  const { code, message, errors } = data as Record<string, unknown>;
  return (
    typeof code === 'string' &&
    typeof message === 'string' &&
    Array.isArray(errors) &&
    errors.every((entry) => typeof entry === 'object' && entry !== null && typeof entry.message === 'string')
  );
}

/** Characters of a non-JSON error body worth showing: a proxy's page says what it is at the start. */
const MAX_BODY_TEXT = 300;

/**
 * A body that is not JSON as one line of text: an HTML page loses its markup, scripts and styles
 * (parsed inertly: nothing in it runs), whitespace collapses, and a long text is cut with an ellipsis.
 */
function plainText(data: unknown): string | null {
  if (typeof data !== 'string') return null;
  const withoutMarkup = /<[a-z!/]/i.test(data)
    ? data.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ').replace(/<[^>]*>/g, ' ')
    : data;
  const decoded = withoutMarkup.includes('&')
    ? (new DOMParser().parseFromString(withoutMarkup, 'text/html').documentElement.textContent ?? '')
    : withoutMarkup;
  const text = decoded.replace(/\s+/g, ' ').trim();
  if (!text) return null;
  return text.length > MAX_BODY_TEXT ? `${text.slice(0, MAX_BODY_TEXT - 1)}…` : text;
}

/** A non-empty `message` string of a JSON error body, even one not in the contract's shape (a proxy's). */
function messageOf(data: unknown): string | null {
  if (typeof data !== 'object' || data === null || !('message' in data)) return null;
  return typeof data.message === 'string' && data.message.trim() ? data.message : null;
}

async function request<T>(
  method: string,
  path: string,
  body: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const isLogin = isSignInPath(path);
  const token = isLogin ? null : getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, null, null, 'Sunucuya bağlanılamadı.');
  }

  const data = await readBody(response);
  if (response.ok) {
    const outcome = response.headers.get(OUTCOME_HEADER);
    if (outcome) onOutcome(outcome);
    return data as T;
  }

  const serverMessage = messageOf(data);
  if (response.status === 401 && !isLogin) {
    // Whose session ended, read before the token goes: only they are sent back to this page.
    const owner = tokenOwner();
    clearToken();
    onUnauthorized(owner);
  }
  if (response.status === 403 && isErrorBody(data) && data.errors[0]?.code === TWO_FACTOR_SETUP_REQUIRED) {
    onTwoFactorSetupRequired();
  }
  throw new ApiError(
    response.status,
    isErrorBody(data) ? data : null,
    serverMessage,
    serverMessage ?? `Request failed with status ${response.status}.`,
    plainText(data),
  );
}

/**
 * The one HTTP client. Paths are relative to /api (`api.get('/cloudflare/zones')`); JSON goes in and
 * comes out; every call but login carries the bearer token; a non-2xx answer throws an ApiError.
 */
export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, body, options),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, body, options),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, undefined, options),
};

/** A field of a declared params or query schema as it goes into a URL (a coerced number accepts anything). */
type UrlFields<T, V> = { [K in keyof T]: unknown extends T[K] ? V : T[K] };
type ParamsOf<E> = E extends { params: z.ZodType } ? UrlFields<z.input<E['params']>, string | number> : never;
type QueryOf<E> = E extends { query: z.ZodType } ? UrlFields<z.input<E['query']>, QueryValue> : never;
type BodyOf<E> = E extends { body: z.ZodType } ? z.input<E['body']> : never;

/** What calling `E` takes: its params when its path has some, its query and body as declared, a signal. */
export type EndpointCall<E extends Endpoint> = ([ParamsOf<E>] extends [never]
  ? { params?: never }
  : { params: ParamsOf<E> }) &
  ([QueryOf<E>] extends [never]
    ? { query?: never }
    : Partial<QueryOf<E>> extends QueryOf<E>
      ? { query?: QueryOf<E> }
      : { query: QueryOf<E> }) &
  ([BodyOf<E>] extends [never]
    ? { body?: never }
    : undefined extends BodyOf<E>
      ? { body?: BodyOf<E> }
      : { body: BodyOf<E> }) & { signal?: AbortSignal };

type SuccessStatus = 200 | 201 | 202 | 204;
/** What `E` answers on success: the output of its 2xx response schema (`undefined` for a 204). */
export type EndpointAnswer<E extends Endpoint> = E extends Endpoint
  ? {
      [S in keyof E['responses']]: S extends SuccessStatus ? z.output<E['responses'][S]> : never;
    }[keyof E['responses']]
  : never;

/**
 * Calls a declared endpoint (`packages/contract/src/<resource>/`): its method, its path with each param
 * filled in and encoded, the query and body its schemas take, an answer of its success response's
 * type. The answer is not parsed in the browser (zod stays out of the login page); the server checks
 * it against the same schema on the way out. Errors as for `api`: an ApiError, a 401 ends the session.
 *
 * `callEndpoint(banListItemEndpoints.sync, { params: { list_id } })`
 *
 * The login page, whose budget has no room for zod, passes the declaration as a type and its zod-free
 * method and path, which must match it: `callEndpoint<typeof authEndpoints.login>(signInRoutes.login, ...)`.
 */
export function callEndpoint<E extends Endpoint>(
  endpoint: E | Pick<NoInfer<E>, 'method' | 'path'>,
  ...[call]: Partial<EndpointCall<E>> extends EndpointCall<E>
    ? [call?: EndpointCall<E>]
    : [call: EndpointCall<E>]
): Promise<EndpointAnswer<E>> {
  const { params, query, body, signal } = (call ?? {}) as {
    params?: Record<string, string | number>;
    query?: Record<string, QueryValue>;
    body?: unknown;
    signal?: AbortSignal;
  };
  const path = pathOf(endpoint, params);
  if (!path.startsWith(`${API_BASE}/`)) throw new Error(`${endpoint.path} is not under ${API_BASE}.`);
  return request<EndpointAnswer<E>>(endpoint.method, path.slice(API_BASE.length), body, { query, signal });
}
