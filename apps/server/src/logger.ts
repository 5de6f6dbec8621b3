import type { FastifyBaseLogger } from 'fastify';
import { pino, symbols, type Bindings, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config';

/** Query parameters whose values are credentials whenever a client puts one in a URL. */
const SENSITIVE_PARAM =
  /^(token|access_token|id_token|api_token|apitoken|api_key|apikey|key|jwt|session|password|secret|auth|authorization)$/i;

/** The URL with the values of credential-like query parameters replaced, for logging. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt < 0) return url;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed escape is logged as sent.
      }
      return equals >= 0 && SENSITIVE_PARAM.test(decoded) ? `${name}=[REDACTED]` : pair;
    })
    .join('&');
  return `${url.slice(0, queryAt)}?${query}`;
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  headers?: Record<string, unknown>;
  socket?: { remotePort?: number };
}

/**
 * The process's logger. Session tokens and Cloudflare API tokens are secrets: the Authorization and
 * Cookie headers, any `token`/`apiToken`/`password` field, and credential-like query parameters (a
 * client that puts its token in the URL is refused, but the URL would still be logged) never reach a
 * log line.
 */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.logLevel,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'headers.authorization',
          'headers.cookie',
          'token',
          'apiToken',
          'password',
          '*.token',
          '*.apiToken',
          '*.password',
          '*.headers.authorization',
        ],
        censor: '[REDACTED]',
      },
      serializers: {
        // Fastify's own request serializer, with the URL's credentials redacted.
        req: (request: LoggedRequest) => ({
          method: request.method,
          url: redactUrl(request.url),
          version: request.headers?.['accept-version'],
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        }),
      },
    },
    destination,
  );
}

/** Where a request's logger keeps its bindings until it needs them. */
const PENDING_BINDINGS = Symbol('pendingBindings');
/** Per app logger, the prototype of its requests' loggers (null: not a pino logger). */
const requestLoggerBases = new WeakMap<object, object | null>();

/**
 * A request's logger: what `logger.child(bindings)` makes (the request's id on every line), but pino
 * works out the bindings' text (`symbols.chindingsSym`) only when the request first writes a line or
 * makes a child. Making it at once ran the redaction's wildcard paths on the id for every request,
 * most of which log nothing at the level set: 0.7 us of a request's ~50. A pino child is
 * `Object.create(parent)` holding that text, so levels set on this one stay its own, as on a child.
 * A logger other than pino's gets its own child().
 */
export function requestLogger(logger: FastifyBaseLogger, bindings: Bindings): FastifyBaseLogger {
  let base = requestLoggerBases.get(logger);
  if (base === undefined) {
    base = symbols.chindingsSym in logger ? lazyBindingsBase(logger) : null;
    requestLoggerBases.set(logger, base);
  }
  if (base === null) return logger.child(bindings);
  const requestLog = Object.create(base) as FastifyBaseLogger & { [PENDING_BINDINGS]: Bindings };
  requestLog[PENDING_BINDINGS] = bindings;
  return requestLog;
}

function lazyBindingsBase(logger: FastifyBaseLogger): object {
  const keep = (target: object, value: string) =>
    Object.defineProperty(target, symbols.chindingsSym, { value, writable: true, configurable: true });
  return Object.create(logger, {
    [symbols.chindingsSym]: {
      get(this: { [PENDING_BINDINGS]: Bindings }) {
        const child = logger.child(this[PENDING_BINDINGS]) as unknown as Record<symbol, string>;
        const text = child[symbols.chindingsSym]!;
        keep(this, text);
        return text;
      },
      // pino's setBindings, and a child of this one as pino makes it, assign their own text.
      set(this: object, value: string) {
        keep(this, value);
      },
    },
  }) as object;
}
