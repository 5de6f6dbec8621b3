import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { CLOUDFLARE_DEFAULTS, type CloudflareOptions } from './cloudflare/client';
import type { JobsConfig } from './jobs/jobs-config';
import { SETTING_RANGES, SMTP_TLS_MODES, type SettingName, type SmtpTlsMode } from '@guardian/contract';

export const MODES = ['production', 'demo', 'test'] as const;
export type Mode = (typeof MODES)[number];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The sign-in slow-down (see LoginLimiter): allowances of failures, and how fast they drain. */
export interface LoginRateLimit {
  /** Each key gets its allowance of failures back over this many seconds. */
  windowSeconds: number;
  /** Failures of one e-mail from one client address before its attempts are slowed down. */
  maxFailuresPerEmail: number;
  /** Failures from one client address (any e-mails) before its attempts are slowed down. */
  maxFailuresPerAddress: number;
}

/** What one person may ask of the API (see request-limits.ts). */
export interface RequestLimits {
  /** API requests a minute, per signed-in user (per address on the public routes). */
  perMinute: number;
  /** Costly requests (item pages and searches, syncs) running at once per user... */
  concurrentCostly: number;
  /** ...and waiting for their turn; past that a 429. */
  queuedCostly: number;
}

/** argon2id cost parameters (memory in KiB). */
export interface PasswordHashing {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export interface Config {
  mode: Mode;
  port: number;
  host: string;
  /** Absolute path of the folder holding PGlite's data and the demo's generated secrets. */
  dataDir: string;
  /** PostgreSQL connection string; unset means embedded PGlite in `dataDir`. */
  databaseUrl: string | undefined;
  /**
   * A query unanswered this long fails (503). On PostgreSQL its connection is replaced, so a database
   * that goes silent (a network partition, no reset) cannot hold the pool's connections for the
   * kernel's 15 minutes of retransmissions; on PGlite it bounds the wait behind other statements too.
   */
  databaseQueryTimeoutMs: number;
  /**
   * The same bound for the queries of reads (GET requests, health included): a locked table or a
   * stalled embedded database answers a 503 with Retry-After in seconds, while jobs keep the longer one.
   */
  databaseReadTimeoutMs: number;
  /** HS256 key of session tokens. */
  jwtSecret: string;
  /** AES-256-GCM key of stored Cloudflare API tokens (32 bytes). */
  encryptionKey: Buffer;
  tokenTtlSeconds: number;
  /**
   * How long a verified session is trusted before the user is read from the database again (so a
   * disabled user or a changed level takes effect within it). 0: read on every request.
   */
  sessionRecheckMs: number;
  /** How the server talks to Cloudflare (or to the sandbox, in the demo and tests). */
  cloudflare: CloudflareOptions;
  /** Serve the built web app (production and demo) from `webDistDir`. */
  serveWebApp: boolean;
  webDistDir: string;
  logLevel: LogLevel;
  /**
   * Which proxies' `X-Forwarded-For` entries are believed (Fastify's trustProxy): none, the last N hops,
   * or a comma-separated list of proxy addresses/CIDRs. Never `true`: that believes the left-most
   * entry, which the client writes.
   */
  trustProxy: false | number | string;
  loginRateLimit: LoginRateLimit;
  requestLimits: RequestLimits;
  passwordHashing: PasswordHashing;
  bodyLimitBytes: number;
  /**
   * Request bodies in flight (read, parsed or being answered), in bytes: per person (by address before
   * signing in) and in all; past either a 429 with Retry-After before the body is read (request-limits.ts).
   */
  bodiesInFlight: { perPersonBytes: number; totalBytes: number };
  /**
   * Slow clients (app.ts, request-limits.ts `limitConnectionsPerAddress`): a request's headers must arrive within
   * `headersMs` and the whole request within `requestMs`, else the connection is closed; an address
   * holds at most `perAddress` connections open (not counted behind a trusted proxy, whose address
   * every connection has: the proxy bounds its clients).
   */
  connections: { headersMs: number; requestMs: number; perAddress: number };
  /** How long a snapshot of what Clean All or a delete removed can be restored. */
  snapshotRetentionMs: number;
  /** How long the audit trail keeps an event. */
  auditRetentionMs: number;
  /** How often each process looks for expired ban list items to remove (ban-list-expiry/item-expiry.ts). */
  itemExpirySweepMs: number;
  /** How often each process looks for CrowdSec servers whose pull is due (modules/servers/crowdsec). */
  crowdsecSweepMs: number;
  /**
   * How long a report's ask waits for its reading before it answers with what is read so far
   * (modules/reports, progressive reports). Tests wait longer, so a loaded machine still answers whole.
   */
  reportFirstAnswerMs: number;
  /**
   * Keep answers in memory (item pages and search counts per list version, looked-up lists, zones
   * lists per mirror version). Off, every read asks the database: the benchmark's cold reads.
   */
  answerCaches: boolean;
  /** How long a resolved (or resolved by itself) alert is kept. */
  resolvedAlertRetentionMs: number;
  /**
   * Alert notifications (modules/notifications): the e-mail batching window (one e-mail per person
   * and kind in it, a digest of the rest after) and how often each process looks for due digests and
   * retries; their links use `publicUrl`.
   */
  notifications: { mailWindowMs: number; mailSweepMs: number };
  /** Outgoing e-mail as the environment sets it (each part unset: System Setting's, modules/system-settings). */
  smtp: SmtpEnvironment;
  /**
   * The System Setting fields an environment variable sets (by the variable's name): these win over
   * the database's and the page says so (modules/system-settings).
   */
  settingsFromEnvironment: Partial<Record<SettingName, string>>;
  /** How often each process checks whether the system settings changed (their version row). */
  settingsRefreshMs: number;
  /** Background operations (src/jobs/): tests shorten the wait and the budget; unset, the defaults. */
  jobs?: JobsConfig;
  /**
   * The console's address as people reach it (GUARDIAN_PUBLIC_URL), for the links in notifications;
   * unset, a notification names the page's path without a link.
   */
  publicUrl: string | undefined;
  /** The notification channel GUARDIAN_NOTIFICATION_WEBHOOK_URL and _SECRET set (modules/notification-webhooks). */
  notificationWebhook: { url: string; secret: string } | undefined;
  /**
   * Notification channels may post to http:// on a loopback address (tests and the demo, whose
   * receivers run on this machine); otherwise https:// only.
   */
  notificationLoopbackHttp: boolean;
}

/** The outgoing e-mail's parts an environment variable sets. */
export interface SmtpEnvironment {
  host?: string;
  port?: number;
  tls?: SmtpTlsMode;
  user?: string;
  password?: string;
  sender?: string;
}

/** Which environment variable sets which System Setting field. */
const SETTING_VARIABLES: Partial<Record<SettingName, string>> = {
  smtp_host: 'GUARDIAN_SMTP_HOST',
  smtp_port: 'GUARDIAN_SMTP_PORT',
  smtp_tls: 'GUARDIAN_SMTP_TLS',
  smtp_user: 'GUARDIAN_SMTP_USER',
  smtp_password: 'GUARDIAN_SMTP_PASSWORD',
  smtp_sender: 'GUARDIAN_SMTP_SENDER',
  session_lifetime_minutes: 'GUARDIAN_TOKEN_TTL_SECONDS',
  sign_in_window_minutes: 'GUARDIAN_LOGIN_WINDOW_SECONDS',
  sign_in_failures_per_email: 'GUARDIAN_LOGIN_MAX_FAILURES_PER_EMAIL',
  sign_in_failures_per_address: 'GUARDIAN_LOGIN_MAX_FAILURES_PER_ADDRESS',
  audit_retention_days: 'GUARDIAN_AUDIT_RETENTION_DAYS',
  snapshot_retention_hours: 'GUARDIAN_SNAPSHOT_RETENTION_HOURS',
  resolved_alert_retention_days: 'GUARDIAN_RESOLVED_ALERT_RETENTION_DAYS',
  expiry_sweep_seconds: 'GUARDIAN_EXPIRY_SWEEP_SECONDS',
};

export type Env = Record<string, string | undefined>;

/** Thrown with every problem found, so an operator fixes them all in one go. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const SECRET_MIN_LENGTH = 32;
/** Fewer distinct characters than this is no random secret ('a' x 36); 32 random hex digits hold about 14. */
const SECRET_MIN_DISTINCT = 10;
/** Fewer distinct bytes than this is no random key (all zeros, one byte repeated); 32 random bytes hold about 30. */
const KEY_MIN_DISTINCT = 8;
const SECRET_HINT = `at least ${SECRET_MIN_LENGTH} random characters, e.g. \`openssl rand -base64 48\``;
const KEY_HINT = '32 random bytes as base64 or hex, e.g. `openssl rand -base64 32`';
const distinct = (values: Iterable<unknown>) => new Set(values).size;

// Both `src/` and the bundle's `dist/` sit one level below apps/server, so this holds for either.
const DEFAULT_WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const TRUST_PROXY_HINT =
  'the number of proxies in front of Guardian (e.g. 1) or their addresses/CIDRs, comma-separated (e.g. 10.0.0.5,10.1.0.0/16)';
// proxy-addr's names for address ranges.
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** A proxy address, CIDR or range name as proxy-addr reads it; false for anything else. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

const trustProxySchema = z
  .string()
  .transform((text, ctx): false | number | string => {
    const value = text.trim();
    if (value === 'false' || value === '0') return false;
    if (value === 'true') {
      ctx.addIssue({
        code: 'custom',
        message: `"true" would believe the left-most X-Forwarded-For entry, which any client can write: set ${TRUST_PROXY_HINT}`,
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(',').map((entry) => entry.trim());
    const invalid = entries.find((entry) => !isProxyAddress(entry));
    if (invalid !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `"${invalid}" is not a proxy address; set ${TRUST_PROXY_HINT}`,
      });
      return z.NEVER;
    }
    return entries.join(',');
  })
  .default(false);

const envSchema = z.object({
  GUARDIAN_MODE: z.enum(MODES).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().optional(),
  GUARDIAN_DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection string')
    .optional(),
  GUARDIAN_DATABASE_QUERY_TIMEOUT_SECONDS: positiveInt(60),
  GUARDIAN_DATABASE_READ_TIMEOUT_SECONDS: positiveInt(5),
  GUARDIAN_SECRET: z
    .string()
    .min(SECRET_MIN_LENGTH, `must be ${SECRET_HINT}`)
    .refine(
      (text) => distinct(text) >= SECRET_MIN_DISTINCT,
      `has fewer than ${SECRET_MIN_DISTINCT} distinct characters, so it is easy to guess: use ${SECRET_HINT}`,
    )
    .optional(),
  GUARDIAN_ENCRYPTION_KEY: z
    .string()
    .transform((text, ctx) => {
      const key = parseEncryptionKey(text);
      if (!key) ctx.addIssue({ code: 'custom', message: `must be ${KEY_HINT}` });
      else if (distinct(key) < KEY_MIN_DISTINCT) {
        ctx.addIssue({
          code: 'custom',
          message: `is a known-weak key (fewer than ${KEY_MIN_DISTINCT} distinct bytes, e.g. all zeros): use ${KEY_HINT}`,
        });
      }
      return key ?? z.NEVER;
    })
    .optional(),
  GUARDIAN_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 24 * 3600)
    .default(12 * 3600),
  CLOUDFLARE_API_BASE_URL: z.url().default('https://api.cloudflare.com/client/v4'),
  CLOUDFLARE_TIMEOUT_MS: positiveInt(CLOUDFLARE_DEFAULTS.timeoutMs),
  CLOUDFLARE_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(CLOUDFLARE_DEFAULTS.maxRetries),
  CLOUDFLARE_RATE_LIMIT_REQUESTS: positiveInt(CLOUDFLARE_DEFAULTS.rateLimit.requests),
  CLOUDFLARE_RATE_LIMIT_WINDOW_SECONDS: positiveInt(CLOUDFLARE_DEFAULTS.rateLimit.windowMs / 1000),
  GUARDIAN_WEB_DIST_DIR: z.string().optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).optional(),
  GUARDIAN_TRUST_PROXY: trustProxySchema,
  GUARDIAN_SESSION_RECHECK_MS: z.coerce.number().int().min(0).max(60_000).optional(),
  GUARDIAN_LOGIN_WINDOW_SECONDS: positiveInt(3600),
  GUARDIAN_LOGIN_MAX_FAILURES_PER_EMAIL: positiveInt(5),
  GUARDIAN_LOGIN_MAX_FAILURES_PER_ADDRESS: positiveInt(30),
  GUARDIAN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().optional(),
  GUARDIAN_RATE_LIMIT_CONCURRENT: z.coerce.number().int().positive().optional(),
  GUARDIAN_RATE_LIMIT_QUEUED: z.coerce.number().int().min(0).optional(),
  GUARDIAN_SNAPSHOT_RETENTION_HOURS: z.coerce.number().int().min(1).max(8_760).default(168),
  GUARDIAN_AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(365),
  GUARDIAN_EXPIRY_SWEEP_SECONDS: z.coerce.number().int().min(1).max(3_600).default(60),
  GUARDIAN_ANSWER_CACHES: z.enum(['on', 'off']).default('on'),
  // The alert e-mails' batching window: one e-mail per person and kind in it (the benchmark shortens it).
  GUARDIAN_ALERT_MAIL_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  GUARDIAN_RESOLVED_ALERT_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(SETTING_RANGES.resolved_alert_retention_days.min)
    .max(SETTING_RANGES.resolved_alert_retention_days.max)
    .default(90),
  GUARDIAN_SMTP_HOST: z.string().max(253).optional(),
  GUARDIAN_SMTP_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  GUARDIAN_SMTP_TLS: z.enum(SMTP_TLS_MODES).optional(),
  GUARDIAN_SMTP_USER: z.string().max(254).optional(),
  GUARDIAN_SMTP_PASSWORD: z.string().max(512).optional(),
  GUARDIAN_SMTP_SENDER: z.string().max(320).optional(),
  GUARDIAN_PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be the http(s):// address of the console' })
    .max(300)
    .optional(),
  GUARDIAN_NOTIFICATION_WEBHOOK_URL: z
    .url({ protocol: /^https?$/, error: 'must be an https:// URL' })
    .max(2_000)
    .optional(),
  GUARDIAN_NOTIFICATION_WEBHOOK_SECRET: z
    .string()
    .regex(
      /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/,
      'must be a Standard Webhooks secret: whsec_ and the base64 of at least 24 random bytes',
    )
    .optional(),
});

/** A 32-byte key from 64 hex digits or base64; undefined when it is neither. */
export function parseEncryptionKey(value: string): Buffer | undefined {
  const text = value.trim();
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  return key.length === 32 ? key : undefined;
}

/** Reads a secret kept in the data folder, creating it (readable by the owner only) the first time. */
function readOrCreateSecret(path: string, generate: () => string): string {
  try {
    writeFileSync(path, generate(), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return readFileSync(path, 'utf8').trim();
}

/**
 * Parses the environment once. Production needs its secrets given; the demo generates them once and
 * keeps them in the data folder so sessions and stored tokens survive a restart; tests get fresh ones.
 */
export function loadConfig(env: Env = process.env): Config {
  // `FOO=` in a compose file means "not set", not "empty".
  const given = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = envSchema.safeParse(given);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  if ((given.GUARDIAN_MODE ?? 'production') === 'production') {
    if (!given.GUARDIAN_SECRET)
      problems.push(`GUARDIAN_SECRET is required in production mode (${SECRET_HINT}).`);
    if (!given.GUARDIAN_ENCRYPTION_KEY) {
      problems.push(`GUARDIAN_ENCRYPTION_KEY is required in production mode (${KEY_HINT}).`);
    }
  }
  if (
    (given.GUARDIAN_NOTIFICATION_WEBHOOK_URL === undefined) !==
    (given.GUARDIAN_NOTIFICATION_WEBHOOK_SECRET === undefined)
  )
    problems.push(
      'GUARDIAN_NOTIFICATION_WEBHOOK_URL and GUARDIAN_NOTIFICATION_WEBHOOK_SECRET are set together (the webhook and its signing secret).',
    );
  // http:// reaches only a receiver on this machine, and only outside production (tests, the demo).
  if (
    (given.GUARDIAN_MODE ?? 'production') === 'production' &&
    given.GUARDIAN_NOTIFICATION_WEBHOOK_URL?.startsWith('http:')
  )
    problems.push('GUARDIAN_NOTIFICATION_WEBHOOK_URL: must be an https:// URL');
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);

  const vars = parsed.data;
  const mode = vars.GUARDIAN_MODE;
  const dataDir = resolve(vars.GUARDIAN_DATA_DIR);
  let jwtSecret = vars.GUARDIAN_SECRET;
  let encryptionKey = vars.GUARDIAN_ENCRYPTION_KEY;
  if (mode === 'demo') {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    if (!jwtSecret) {
      const secretFile = join(dataDir, 'guardian-secret');
      jwtSecret = readOrCreateSecret(secretFile, () => randomBytes(48).toString('base64url'));
      if (jwtSecret.length < SECRET_MIN_LENGTH)
        throw new ConfigError([`${secretFile} must hold ${SECRET_HINT}.`]);
    }
    if (!encryptionKey) {
      const keyFile = join(dataDir, 'encryption-key');
      encryptionKey = parseEncryptionKey(
        readOrCreateSecret(keyFile, () => randomBytes(32).toString('base64')),
      );
      // Never replace a damaged key silently: the stored Cloudflare tokens would become unreadable.
      if (!encryptionKey) throw new ConfigError([`${keyFile} must hold ${KEY_HINT}.`]);
    }
  }
  // Production has both by now (checked above); tests get fresh ones.
  jwtSecret ??= randomBytes(48).toString('base64url');
  encryptionKey ??= randomBytes(32);

  const databaseUrl = mode === 'demo' ? undefined : vars.DATABASE_URL;
  return {
    mode,
    port: vars.PORT,
    // The demo has published passwords: this machine only, unless HOST says otherwise.
    host: vars.HOST ?? (mode === 'demo' ? '127.0.0.1' : '0.0.0.0'),
    dataDir,
    // The demo's database is the embedded one, in the data folder beside the secrets that encrypt its
    // tokens and the sandbox it mirrors: another database would mix it with rows it cannot read.
    databaseUrl,
    databaseQueryTimeoutMs: vars.GUARDIAN_DATABASE_QUERY_TIMEOUT_SECONDS * 1000,
    databaseReadTimeoutMs: vars.GUARDIAN_DATABASE_READ_TIMEOUT_SECONDS * 1000,
    jwtSecret,
    encryptionKey,
    tokenTtlSeconds: vars.GUARDIAN_TOKEN_TTL_SECONDS,
    // Tests change users in the database and expect the next request to see it; the interval has its own test.
    sessionRecheckMs: vars.GUARDIAN_SESSION_RECHECK_MS ?? (mode === 'test' ? 0 : 2_000),
    cloudflare: {
      baseUrl: vars.CLOUDFLARE_API_BASE_URL.replace(/\/+$/, ''),
      timeoutMs: vars.CLOUDFLARE_TIMEOUT_MS,
      maxRetries: vars.CLOUDFLARE_MAX_RETRIES,
      rateLimit: {
        requests: vars.CLOUDFLARE_RATE_LIMIT_REQUESTS,
        windowMs: vars.CLOUDFLARE_RATE_LIMIT_WINDOW_SECONDS * 1000,
      },
      maxRetryAfterMs: CLOUDFLARE_DEFAULTS.maxRetryAfterMs,
    },
    serveWebApp: mode !== 'test',
    webDistDir: vars.GUARDIAN_WEB_DIST_DIR ? resolve(vars.GUARDIAN_WEB_DIST_DIR) : DEFAULT_WEB_DIST_DIR,
    logLevel: vars.LOG_LEVEL ?? (mode === 'test' ? 'silent' : 'info'),
    trustProxy: vars.GUARDIAN_TRUST_PROXY,
    loginRateLimit: {
      windowSeconds: vars.GUARDIAN_LOGIN_WINDOW_SECONDS,
      maxFailuresPerEmail: vars.GUARDIAN_LOGIN_MAX_FAILURES_PER_EMAIL,
      maxFailuresPerAddress: vars.GUARDIAN_LOGIN_MAX_FAILURES_PER_ADDRESS,
    },
    // 600 a minute is ten a second for a whole minute: more than clicking and typing make. Test suites
    // send thousands from one user and address; the limits' own tests set theirs.
    requestLimits: {
      perMinute: vars.GUARDIAN_RATE_LIMIT_PER_MINUTE ?? (mode === 'test' ? 1_000_000 : 600),
      // PGlite answers one query at a time for everyone: one person's second costly read would wait
      // there in front of other people's requests, so it waits in the person's own line instead.
      concurrentCostly:
        vars.GUARDIAN_RATE_LIMIT_CONCURRENT ?? (mode === 'test' ? 1_000 : databaseUrl === undefined ? 1 : 2),
      queuedCostly: vars.GUARDIAN_RATE_LIMIT_QUEUED ?? (mode === 'test' ? 1_000 : 8),
    },
    // OWASP's argon2id baseline; tests use the cheapest setting so suites stay fast.
    passwordHashing:
      mode === 'test'
        ? { memoryCost: 1024, timeCost: 1, parallelism: 1 }
        : { memoryCost: 19456, timeCost: 2, parallelism: 1 },
    bodyLimitBytes: 1024 * 1024,
    // One import's body (16 MB) and a few small ones a person; 32 MB of bodies in all: two 14 MB
    // previews at once peaked at 175 MB of heap, within production's 256 MB (--max-old-space-size).
    bodiesInFlight: { perPersonBytes: 20_000_000, totalBytes: 32_000_000 },
    // A browser opens about 6 connections a site: 128 is an office of 20 behind one address.
    connections: { headersMs: 20_000, requestMs: 120_000, perAddress: 128 },
    snapshotRetentionMs: vars.GUARDIAN_SNAPSHOT_RETENTION_HOURS * 3_600_000,
    auditRetentionMs: vars.GUARDIAN_AUDIT_RETENTION_DAYS * 86_400_000,
    itemExpirySweepMs: vars.GUARDIAN_EXPIRY_SWEEP_SECONDS * 1000,
    // A CrowdSec server's pull interval is at least 10 s: a due pull waits at most one more sweep.
    crowdsecSweepMs: 10_000,
    reportFirstAnswerMs: mode === 'test' ? 30_000 : 600,
    answerCaches: vars.GUARDIAN_ANSWER_CACHES === 'on',
    resolvedAlertRetentionMs: vars.GUARDIAN_RESOLVED_ALERT_RETENTION_DAYS * 86_400_000,
    notifications: {
      mailWindowMs: vars.GUARDIAN_ALERT_MAIL_WINDOW_SECONDS * 1000,
      // A digest or a retry falls due at most this long before it is sent (a first e-mail goes at once).
      mailSweepMs: 5_000,
    },
    smtp: {
      host: vars.GUARDIAN_SMTP_HOST,
      port: vars.GUARDIAN_SMTP_PORT,
      tls: vars.GUARDIAN_SMTP_TLS,
      user: vars.GUARDIAN_SMTP_USER,
      password: vars.GUARDIAN_SMTP_PASSWORD,
      sender: vars.GUARDIAN_SMTP_SENDER,
    },
    settingsFromEnvironment: Object.fromEntries(
      Object.entries(SETTING_VARIABLES).filter(([, variable]) => given[variable] !== undefined),
    ),
    settingsRefreshMs: 5_000,
    publicUrl: vars.GUARDIAN_PUBLIC_URL?.replace(/\/+$/, ''),
    notificationWebhook:
      vars.GUARDIAN_NOTIFICATION_WEBHOOK_URL && vars.GUARDIAN_NOTIFICATION_WEBHOOK_SECRET
        ? { url: vars.GUARDIAN_NOTIFICATION_WEBHOOK_URL, secret: vars.GUARDIAN_NOTIFICATION_WEBHOOK_SECRET }
        : undefined,
    notificationLoopbackHttp: mode !== 'production',
  };
}
