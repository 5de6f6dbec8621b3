import { pino, type DestinationStream, type Logger } from 'pino';
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
