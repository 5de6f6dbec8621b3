import type { FastifyBaseLogger } from 'fastify';
import type { CloudflareGateway } from './cloudflare';
import type { TokenCipher } from './crypto/token-cipher';
import type { Db } from './db';

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
  /** The process's pino logger; without it the app logs at `config.logLevel` on its own. */
  logger?: FastifyBaseLogger;
}
