import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { CloudflareGateway } from './cloudflare';
import type { Config } from './config';
import { TokenCipher } from './crypto/token-cipher';
import type { Db } from './db';
import { AppError, registerErrorHandler } from './errors';
import { createLogger } from './logger';
import { registerAuthGuard } from './modules/auth/auth.guard';
import { authRoutes } from './modules/auth/auth.routes';
import { accountsRoutes } from './modules/accounts/accounts.routes';
import { banlistsRoutes } from './modules/banlists/banlists.routes';
import { dnsRoutes } from './modules/dns/dns.routes';
import { firewallRoutes } from './modules/firewall/firewall.routes';
import { pagerulesRoutes } from './modules/pagerules/pagerules.routes';
import { zonesRoutes } from './modules/zones/zones.routes';
import { healthRoutes } from './modules/health/health.routes';
import { UsersRepository } from './modules/users/users.repository';
import { usersRoutes } from './modules/users/users.routes';
import { isApiPath, trackRoutes } from './route-table';
import { isWebAppRoute, registerWebApp } from './web-app';

/** What the app is built from; modules get it whole. Extend it here as features need more. */
export interface AppDeps {
  db: Db;
  /** The one gateway to Cloudflare: SDK clients per account token, each with its own throttle. */
  cloudflare: CloudflareGateway;
  /** Encrypts and decrypts stored Cloudflare API tokens. */
  tokenCipher: TokenCipher;
  /** The process's pino logger; without it the app logs at `config.logLevel` on its own. */
  logger?: FastifyBaseLogger;
}

/** The dependencies a running server builds from its config (tests and benchmarks may swap some). */
export function createAppDeps(config: Config, db: Db, overrides: Partial<Omit<AppDeps, 'db'>> = {}): AppDeps {
  return {
    db,
    cloudflare: new CloudflareGateway(config.cloudflare),
    tokenCipher: new TokenCipher(config.encryptionKey),
    ...overrides,
  };
}

/** Options every module plugin receives: `app.register(zonesRoutes, moduleOptions)`. */
export interface ModuleOptions {
  config: Config;
  deps: AppDeps;
}

const CONTENT_SECURITY_POLICY = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    // Radix (scroll lock) and @hello-pangea/dnd insert <style> elements at run time; inline styles
    // cannot run code, while scripts stay limited to our own files.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    fontSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
};

/**
 * The whole HTTP application, not listening. Plugins and modules are registered explicitly, in order:
 * route tracking, errors, security headers, the auth guard, then every module.
 */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // Always the redacting logger: secrets never reach a log line, whoever builds the app.
    loggerInstance: deps.logger ?? createLogger(config),
    trustProxy: trustedProxies(config.trustProxy),
    bodyLimit: config.bodyLimitBytes,
  });

  trackRoutes(app);
  registerErrorHandler(app);
  acceptEmptyJsonBodies(app);
  registerResponseHeaders(app);
  registerAuthGuard(app, new UsersRepository(deps.db), config);
  rejectNulCharacters(app);

  const moduleOptions: ModuleOptions = { config, deps };
  await app.register(healthRoutes, moduleOptions);
  await app.register(authRoutes, moduleOptions);
  await app.register(usersRoutes, moduleOptions);
  await app.register(accountsRoutes, moduleOptions);
  await app.register(banlistsRoutes, moduleOptions);
  await app.register(zonesRoutes, moduleOptions);
  await app.register(dnsRoutes, moduleOptions);
  await app.register(firewallRoutes, moduleOptions);
  await app.register(pagerulesRoutes, moduleOptions);

  const servesWebApp = config.serveWebApp && (await registerWebApp(app, config));
  app.setNotFoundHandler(async (request, reply) => {
    if (servesWebApp && isWebAppRoute(request)) return reply.type('text/html').sendFile('index.html');
    throw new AppError('NOT_FOUND', `Not found: ${request.method} ${request.url.split('?', 1)[0]}`);
  });
  return app;
}

/** Helmet's headers, which are the same for every answer (no nonces): its middleware run once, recorded. */
function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet({
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // Not includeSubDomains: other services on the operator's domain may not speak HTTPS.
    strictTransportSecurity: { maxAge: 180 * 24 * 3600, includeSubDomains: false },
  })({} as IncomingMessage, recorder as unknown as ServerResponse, () => {});
  return headers;
}

/**
 * The security headers on every answer (errors included: Fastify keeps headers set before one), and
 * `cache-control: no-store` on the API's, which carry personal data and tokens. Set in one call per
 * request: helmet as a per-request middleware would set and check each header again every time.
 */
function registerResponseHeaders(app: FastifyInstance): void {
  const site = securityHeaders();
  const api = { ...site, 'cache-control': 'no-store' };
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApiPath(request.url) ? api : site);
    done();
  });
}

/**
 * PostgreSQL text cannot hold U+0000, and no field of this API needs it: refuse it anywhere in the
 * path, the query or the body with a 400 (after the auth guard, before any handler), instead of a
 * database error halfway through a request.
 */
function rejectNulCharacters(app: FastifyInstance): void {
  const refused = () =>
    new AppError('BAD_REQUEST', 'The request contains a NUL character (\\u0000), which is not allowed.');
  app.addHook('preValidation', (request, _reply, done) => {
    // In the path and the query a NUL can only come from "%00" (the HTTP parser refuses a raw one).
    const inUrl = request.url.includes('%00');
    if ((!inUrl && request.body === undefined) || !isApiPath(request.url)) return done();
    const pending: unknown[] = inUrl ? [request.params, request.query, request.body] : [request.body];
    while (pending.length > 0) {
      const value = pending.pop();
      if (typeof value === 'string') {
        if (value.includes('\u0000')) return done(refused());
      } else if (value !== null && typeof value === 'object') {
        for (const [key, child] of Object.entries(value)) pending.push(key, child);
      }
    }
    done();
  });
}

/** Fastify's types lack the hop count proxy-addr understands; express it as the same rule. */
function trustedProxies(setting: Config['trustProxy']) {
  return typeof setting === 'number' ? (_address: string, hop: number) => hop < setting : setting;
}

/**
 * Browsers and API clients often send `Content-Type: application/json` with an empty body on POSTs
 * that take none (sync, clean); treat that as no body instead of a 400.
 */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text === '') done(null, undefined);
    else parseJson(request, text, done);
  });
}
