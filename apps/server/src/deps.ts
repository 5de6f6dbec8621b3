import type { FastifyBaseLogger } from 'fastify';
import type { CloudflareGateway } from './cloudflare';
import type { TokenCipher } from './crypto/token-cipher';
import type { Db } from './db';

/**
 * The switch of the app's answer caches, from `config.answerCaches` (GUARDIAN_ANSWER_CACHES): each
 * cache reads it on every lookup, so the benchmark can turn them off and on in a running server.
 */
export interface AnswerCaches {
  enabled: boolean;
}

/**
 * What the app is built from (app.ts's `createAppDeps` builds it; tests and benchmarks may swap
 * some). Services take what they need from it; route plugins get services, never this bag.
 */
export interface AppDeps {
  db: Db;
  /** The one gateway to Cloudflare: SDK clients per account token, each with its own throttle. */
  cloudflare: CloudflareGateway;
  /** Encrypts and decrypts stored Cloudflare API tokens. */
  tokenCipher: TokenCipher;
  /** Off: every read asks the database (item pages and counts, looked-up lists, zones lists). */
  answerCaches: AnswerCaches;
  /** The process's pino logger; without it the app logs at `config.logLevel` on its own. */
  logger?: FastifyBaseLogger;
  /** The clock (ms) that times how long a session is kept between requests; tests move one by hand. */
  sessionClock?: () => number;
  /** The clock (ms) whose now ends a report's range; a test holds it still across two reads it compares. */
  reportClock?: () => number;
  /** The clock (ms) of the notifications' e-mail windows and retries (modules/notifications); tests move it by hand. */
  notificationClock?: () => number;
}
