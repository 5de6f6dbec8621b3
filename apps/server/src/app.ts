import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import helmet from 'helmet';
import { CloudflareGateway } from './cloudflare';
import type { Config } from './config';
import { TokenCipher } from './crypto/token-cipher';
import { runAsRead, type Db } from './db';
import type { AppDeps } from './deps';
import { AppError } from './app-error';
import { errorBody, registerErrorHandler } from './errors';
import { registerEndpointCompilers } from './endpoint-route';
import { createLogger, requestLogger } from './logger';
import { apiDocsRoutes, registerApiDocument } from './modules/api-docs';
import { registerAuthGuard } from './modules/auth';
import { authRoutes, ownAccountRoutes } from './modules/auth';
import { accountsRoutes } from './modules/accounts';
import { banListsRoutes } from './modules/ban-lists';
import { listImportRoutes } from './modules/ban-list-import';
import { dnsRecordsRoutes } from './modules/dns-records';
import { snapshotsRoutes } from './modules/snapshots';
import { registerAuditTrail } from './modules/audit';
import { auditRoutes } from './modules/audit';
import { alertsRoutes } from './modules/alerts';
import { ticketsRoutes } from './modules/tickets';
import { notificationsRoutes } from './modules/notifications';
import { registerKeyLimits } from './modules/api-keys';
import { apiKeysRoutes } from './modules/api-keys';
import { registerTwoFactorGate } from './modules/two-factor';
import { twoFactorRoutes } from './modules/two-factor';
import { firewallRulesRoutes } from './modules/firewall-rules';
import { pageRulesRoutes } from './modules/page-rules';
import { zoneSettingsRoutes } from './modules/zones';
import { zonesRoutes } from './modules/zones';
import { rulesOverviewRoutes } from './modules/rules-overview';
import { healthRoutes } from './modules/health';
import { usersRoutes } from './modules/users';
import { limitConnectionsPerAddress, registerRequestLimits } from './request-limits';
import { isApiPath, trackRoutes } from './route-table';
import { createServices } from './services';
import { isWebAppRoute, registerWebApp } from './web-app';
import { DatabaseRequestBudget } from './cloudflare/request-budget';
import { jobsRoutes } from './jobs/jobs.routes';
import { ipSearchRoutes } from './modules/ip-search';
import { reportsRoutes } from './modules/reports';
import { plansRoutes } from './modules/plans';
import { crowdsecRoutes, registerServerKeyGuard, serversRoutes } from './modules/servers';
import { systemSettingsRoutes } from './modules/system-settings';
import { notificationChannelsRoutes } from './modules/notification-webhooks';

/** The dependencies a running server builds from its config (tests and benchmarks may swap some). */
export function createAppDeps(config: Config, db: Db, overrides: Partial<Omit<AppDeps, 'db'>> = {}): AppDeps {
  return {
    db,
    // The per-token budget is counted in the database: every server process on it shares it.
    cloudflare: new CloudflareGateway({
      ...config.cloudflare,
      throttleFor: (tokenKey, { requests, windowMs }) =>
        new DatabaseRequestBudget(db, tokenKey, requests, windowMs),
    }),
    tokenCipher: new TokenCipher(config.encryptionKey),
    answerCaches: { enabled: config.answerCaches },
    ...overrides,
  };
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
 * The whole HTTP application, not listening: the composition root. Its services are built once
 * (`createServices`) and each module's routes get the ones they use. Plugins and modules are
 * registered explicitly, in order: route tracking, errors, security headers, the auth guard,
 * per-person request limits, then every module.
 */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // Always the redacting logger: secrets never reach a log line, whoever builds the app.
    loggerInstance: deps.logger ?? createLogger(config),
    // Each request's logger, the app's with the request's id bound as Fastify's own factory makes it,
    // but with no options object when the route sets no log level or serializers (pino then keeps
    // the parent's formatters instead of building them again for every request), and the bindings
    // worked out only if the request logs (requestLogger).
    childLoggerFactory: (logger, bindings, options) =>
      options.level === undefined && options.serializers === undefined
        ? requestLogger(logger, bindings)
        : logger.child(bindings, options),
    trustProxy: trustedProxies(config.trustProxy),
    bodyLimit: config.bodyLimitBytes,
    // Slow clients: headers late past their bound close the connection, checked every second.
    requestTimeout: config.connections.requestMs,
    http: { headersTimeout: config.connections.headersMs, connectionsCheckingInterval: 1_000 },
    // Fastify's own answer to a URL it cannot decode (`%ZZ`) has no contract body and echoes the URL.
    frameworkErrors: (err, _request, reply) => {
      const message =
        err.code === 'FST_ERR_BAD_URL'
          ? 'The request URL is not valid: it has a broken %-escape.'
          : 'The request could not be routed.';
      // The hook's reply is generic over route schemas; this answer has none.
      void (reply as unknown as FastifyReply)
        .code(400)
        .header('cache-control', 'no-store')
        .send(errorBody('BAD_REQUEST', message));
    },
  });

  trackRoutes(app);
  // A GET's queries (health's, the guard's...) are reads: they get the short database bound (db/reads.ts).
  app.addHook('onRequest', (request, _reply, done) =>
    request.method === 'GET' || request.method === 'HEAD' ? runAsRead(done) : done(),
  );
  registerEndpointCompilers(app);
  registerErrorHandler(app);
  acceptEmptyJsonBodies(app);
  registerResponseHeaders(app);
  const services = createServices(config, deps);
  registerAuthGuard(app, services.sessions, services.apiKeys);
  registerServerKeyGuard(app, services.servers);
  await registerRequestLimits(app, config.requestLimits, config.bodiesInFlight);
  if (config.trustProxy === false) limitConnectionsPerAddress(app.server, config.connections.perAddress);
  rejectNulCharacters(app);
  // The settings are read before anything runs (the sweeps use them), then checked every few seconds.
  app.addHook('onReady', async () => services.systemSettings.start());
  app.addHook('onClose', () => services.systemSettings.stop());
  registerAuditTrail(app, deps.db, () => services.systemSettings.current().auditRetentionMs);
  registerKeyLimits(app, deps.db);
  registerTwoFactorGate(app, services.twoFactor);

  await registerApiDocument(app);
  await app.register(healthRoutes, { db: deps.db });
  await app.register(authRoutes, { auth: services.auth });
  await app.register(usersRoutes, {
    users: services.userAdmin,
    passwordLinks: services.passwordLinks,
  });
  await app.register(ownAccountRoutes, { ownAccount: services.ownAccount });
  await app.register(plansRoutes, { plans: services.plans });
  await app.register(accountsRoutes, { accounts: services.accounts, limits: services.planLimits });
  await app.register(banListsRoutes, {
    banLists: services.banLists,
    banListItems: services.banListItems,
    banListSyncJobs: services.banListSyncJobs,
    banListsJobs: services.banListsJobs,
    banListExport: services.banListExport,
    limits: services.planLimits,
  });
  await app.register(listImportRoutes, { listImport: services.listImport });
  await app.register(jobsRoutes, { jobs: services.jobs });
  // The job worker runs while the app does: started when it is ready, stopped (its runs given back
  // to the queue) when it closes, after the requests in flight and before the database closes.
  app.addHook('onReady', async () => services.jobQueue.startInBackground());
  app.addHook('onClose', () => services.jobQueue.stop());
  // The expiry sweep queues its jobs on that queue: it stops first.
  app.addHook('onReady', async () => services.itemExpiry.start());
  app.addHook('onClose', () => services.itemExpiry.stop());
  // Every account's API token is asked about again every few hours (accounts/token-checks.ts).
  app.addHook('onReady', async () => services.tokenChecks.start());
  app.addHook('onClose', () => services.tokenChecks.stop());
  // Servers' bans no job carries (a failed one, a lost enqueue) are handed to a new one.
  app.addHook('onReady', async () => services.serverBanWrites.start());
  app.addHook('onClose', () => services.serverBanWrites.stop());
  // CrowdSec servers whose pull is due get a job (modules/servers/crowdsec).
  app.addHook('onReady', async () => services.crowdsec.start());
  app.addHook('onClose', () => services.crowdsec.stop());
  await app.register(zonesRoutes, {
    zones: services.zones,
    zonesSyncJobs: services.zonesSyncJobs,
    limits: services.planLimits,
  });
  await app.register(zoneSettingsRoutes, { zoneSettings: services.zoneSettings });
  await app.register(rulesOverviewRoutes, { rulesOverview: services.rulesOverview });
  await app.register(dnsRecordsRoutes, { dns: services.dns });
  await app.register(snapshotsRoutes, { snapshots: services.snapshots, restorers: services.restorers });
  await app.register(firewallRulesRoutes, { firewall: services.firewall });
  await app.register(pageRulesRoutes, { pageRules: services.pageRules });
  await app.register(auditRoutes, { db: deps.db });
  await app.register(ipSearchRoutes, {
    db: deps.db,
    search: services.ipSearch,
    actions: services.ipSearchActions,
  });
  await app.register(reportsRoutes, { reports: services.reports, limits: services.planLimits });
  await app.register(apiKeysRoutes, { apiKeys: services.apiKeys });
  await app.register(serversRoutes, { servers: services.servers });
  await app.register(crowdsecRoutes, { crowdsec: services.crowdsec });
  await app.register(alertsRoutes, { alerts: services.alerts });
  // Every account's Lists use is read each minute: past 85% of a quota raises its alert (modules/alerts).
  app.addHook('onReady', async () => services.alertCauses.start());
  app.addHook('onClose', () => services.alertCauses.stop());
  // New alerts' e-mails (batched) and webhooks: due digests and retries are swept by every process.
  await app.register(notificationsRoutes, {
    preferences: services.notificationPreferences,
    emailSetUp: services.emailSetUp,
    windowMs: config.notifications.mailWindowMs,
  });
  app.addHook('onReady', async () => services.notificationDispatch.start());
  app.addHook('onClose', () => services.notificationDispatch.stop());
  await app.register(ticketsRoutes, { tickets: services.tickets });
  await app.register(twoFactorRoutes, { twoFactor: services.twoFactor });
  await app.register(systemSettingsRoutes, { settings: services.systemSettings, mailer: services.mailer });
  await app.register(notificationChannelsRoutes, { channels: services.notificationChannels });
  // The environment's channel is written as its variables say, then deliveries are swept for.
  app.addHook('onReady', async () => {
    await services.notificationChannels
      .applyEnvironment()
      .catch((err: unknown) =>
        app.log.error({ err }, "could not write the environment's notification channel"),
      );
    services.webhookChannels.start();
  });
  app.addHook('onClose', () => services.webhookChannels.stop());
  await app.register(apiDocsRoutes);

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
    // Only containers are queued, and an array's values without their index keys: a 1 MB array of
    // 450,000 numbers once cost 60 MB of [key, value] pairs here.
    const pending: object[] = [];
    const holdsNul = (value: unknown): boolean => {
      if (typeof value === 'string') return value.includes('\u0000');
      if (value !== null && typeof value === 'object') pending.push(value);
      return false;
    };
    const roots = inUrl ? [request.params, request.query, request.body] : [request.body];
    if (roots.some(holdsNul)) return done(refused());
    while (pending.length > 0) {
      const container = pending.pop() as Record<string, unknown>;
      if (Array.isArray(container)) {
        for (const child of container) if (holdsNul(child)) return done(refused());
        continue;
      }
      for (const key in container) {
        if (Object.hasOwn(container, key) && (key.includes('\u0000') || holdsNul(container[key])))
          return done(refused());
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
