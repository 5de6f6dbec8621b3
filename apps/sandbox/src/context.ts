import type { FastifyRequest } from 'fastify';
import type { SandboxState } from './state';
import type { BulkOperationRunner } from './bulk-operation-runner';
import type { Analytics } from './analytics/analytics';

/** Options after defaults; see `SandboxOptions` in sandbox.ts for what each one means. */
export interface ResolvedOptions {
  operationDelayMs: number;
  zoneActivationDelayMs: number | null;
  rateLimit: { limit: number; windowMs: number } | null;
  graphqlRateLimit: { limit: number; windowMs: number } | null;
  callLogLimit: number;
}

/** What every resource module gets when it registers its routes. */
export interface SandboxContext {
  state: SandboxState;
  options: ResolvedOptions;
  operations: BulkOperationRunner;
  /** Generated and added analytics, read by the GraphQL Analytics API. */
  analytics: Analytics;
  /** Timers the sandbox owns (zone activation, bulk operations), cleared on close. */
  schedule(callback: () => void, delayMs: number): void;
}

/** The request path as Cloudflare echoes it in routing errors (no query string). */
export const requestPath = (request: FastifyRequest): string => request.url.split('?')[0] ?? request.url;
