import { endpoints, type AuditOutcome } from '@guardian/contract';
import { valueOf, type Live } from '../../live-setting';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db';
import { endpointNameOf } from '../../endpoint-route';
import { AuditRepository } from './audit.repository';
import { answeredSubjectOf, requestSubjectOf } from './audit-subject';
import { describeEvent, type AuditSubject } from './audit-words';

declare module 'fastify' {
  interface FastifyRequest {
    /** What the trail records of this request beyond the request itself (set before the handler runs). */
    auditContext?: AuditContext;
    /** What the change did beyond its request, set by the handler (e.g. `api_keys_revoked: 2`). */
    auditEffects?: Record<string, unknown>;
    /** Who the trail names when it is not the person's session or API key (a server with its key). */
    auditActor?: string;
  }
}

export interface AuditContext {
  accountId: string | null;
  zoneId: string | null;
  /** What the event's words name (account, list and zone names, item values...). */
  subject?: AuditSubject;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Endpoints that change nothing though they are not reads (an import's preview): not in the trail. */
const CHANGES_NOTHING = new Set(
  Object.entries(endpoints).flatMap(([group, members]) =>
    Object.entries(members)
      .filter(([, endpoint]) => 'changesNothing' in endpoint && endpoint.changesNothing)
      .map(([name]) => `${group}.${name}`),
  ),
);

/** The audited action of a method and route: a declared endpoint that changes something. */
function auditedActionOf(method: string, url: string | undefined): string | undefined {
  if (READS.has(method)) return undefined;
  const name = endpointNameOf(method, url);
  return name && !CHANGES_NOTHING.has(name) ? name : undefined;
}

/** The action of a request that changes something, or undefined for reads, previews and unknown routes. */
export function auditedAction(request: FastifyRequest): string | undefined {
  return auditedActionOf(request.method, request.routeOptions.url);
}

/**
 * Field names whose values never enter the trail: passwords, tokens, keys, codes, and a notification
 * channel's URL (a Slack, Teams or Discord incoming webhook's URL is its secret).
 */
const SECRET_FIELD = /pass|token|secret|key|code|otp|webhook_url/i;
const MAX_TEXT = 200;
const MAX_ENTRIES = 20;
const MAX_MESSAGE = 500;
const SWEEP_INTERVAL_MS = 3_600_000;
/** The longest an answer waits for its audit row. */
const AUDIT_WAIT_MS = 2_000;

/** A bounded copy of what the request carried: secrets redacted, long texts and lists cut. */
export function auditedValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= 3) return '…';
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_ENTRIES).map((entry) => auditedValue(entry, depth + 1));
    return value.length > MAX_ENTRIES ? [...kept, `… ${value.length - MAX_ENTRIES} more`] : kept;
  }
  // Read key by key: an object of a million keys is not listed whole to keep twenty.
  const kept: Record<string, unknown> = {};
  let count = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (count++ === MAX_ENTRIES) {
      kept['…'] = 'more fields';
      break;
    }
    const entry = (value as Record<string, unknown>)[key];
    kept[key] = SECRET_FIELD.test(key) ? '[redacted]' : auditedValue(entry, depth + 1);
  }
  return kept;
}

async function userIdOf(db: Db, email: string): Promise<number | null> {
  const [row] = await db.query<{ id: number }>('SELECT id FROM users WHERE lower(email) = lower($1)', [
    email,
  ]);
  return row?.id ?? null;
}

/** The `message` of an error answer (the contract's ErrorBody), cut to a bound. */
function messageOf(payload: unknown): string | null {
  if (typeof payload !== 'string') return null;
  try {
    const parsed = JSON.parse(payload) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message.slice(0, MAX_MESSAGE) : null;
  } catch {
    return null;
  }
}

/**
 * The path's ids and the request's fields, bounded. Only the first entries of an object are read, and
 * a body that is not an object (an array sent where fields belong) is kept under `body`, cut.
 */
function targetOf(request: FastifyRequest): Record<string, unknown> {
  const params = auditedValue(request.params ?? {}) as Record<string, unknown>;
  const body = request.body;
  if (body === undefined || body === null) return params;
  if (typeof body !== 'object' || Array.isArray(body)) return { ...params, body: auditedValue(body) };
  return { ...params, ...(auditedValue(body) as Record<string, unknown>) };
}

const outcomeOf = (status: number): AuditOutcome =>
  status < 400 ? 'success' : status < 500 ? 'refused' : 'failed';

/**
 * Finds the Cloudflare account (and zone) a request is about, before the handler runs: after a delete
 * the rows are gone. Only the person's own rows are looked at.
 */
export async function requestAccountOf(db: Db, request: FastifyRequest): Promise<AuditContext> {
  const none: AuditContext = { accountId: null, zoneId: null };
  const userId = request.user?.id;
  if (userId === undefined) return none;
  const params = (request.params ?? {}) as Record<string, unknown>;
  const body = (request.body ?? {}) as Record<string, unknown>;
  const url = request.routeOptions.url ?? '';
  const one = async (sql: string, value: unknown) => (await db.query<Found>(sql, [value, userId]))[0];

  let found: Found | undefined;
  if (typeof params.zone_id === 'string') {
    found = await one(
      `SELECT a.account_id, a.account_name, z.zone_id, z.domain FROM zones z
       JOIN cloudflare_accounts a ON a.id = z.account_ref
       WHERE z.zone_id = $1 AND a.user_id = $2`,
      params.zone_id,
    );
  } else if (typeof params.list_id === 'string') {
    found = await one(
      `SELECT a.account_id, a.account_name, bl.list_name FROM ban_lists bl
       JOIN cloudflare_accounts a ON a.id = bl.account_ref
       WHERE bl.list_id = $1 AND a.user_id = $2`,
      params.list_id,
    );
  } else if (url.startsWith('/api/cloudflare/banlists/:id') && typeof params.id === 'number') {
    found = await one(
      `SELECT a.account_id, a.account_name, bl.list_name FROM ban_lists bl
       JOIN cloudflare_accounts a ON a.id = bl.account_ref
       WHERE bl.id = $1 AND a.user_id = $2`,
      params.id,
    );
  } else if (typeof body.account_name === 'string') {
    found = await one(
      `SELECT account_id, account_name FROM cloudflare_accounts
       WHERE lower(account_name) = lower($1) AND user_id = $2`,
      body.account_name,
    );
  }
  return {
    accountId: found?.account_id ?? null,
    zoneId: found?.zone_id ?? null,
    subject: { accountName: found?.account_name, listName: found?.list_name, zoneName: found?.domain },
  };
}

interface Found {
  account_id: string;
  account_name: string;
  zone_id?: string;
  domain?: string;
  list_name?: string;
}

/**
 * The audit trail: every request that changes something (every declared endpoint but reads and
 * those declared `changesNothing`, as an import's preview) is recorded as it is answered: who, from
 * where, what, about which account and zone, how it ended, and all of it in words (describeEvent)
 * naming what the ids stood for then. Not recorded: requests refused before anyone is known (401 outside sign-in) and requests
 * refused by the rate limits (429), so a flood cannot turn into a flood of writes. Its hooks are
 * attached to those endpoints' routes as they are registered (registered before any route): reads,
 * which never enter the trail, do not run them.
 */
export function registerAuditTrail(app: FastifyInstance, db: Db, retentionMs: Live<number>): void {
  const trail = new AuditRepository(db);

  // Events older than the retention are swept at start and hourly, by every process (it is idempotent).
  const sweep = () =>
    AuditRepository.sweep(db, valueOf(retentionMs)).catch((err: unknown) =>
      app.log.error({ err }, 'could not sweep the audit trail'),
    );
  let sweeper: ReturnType<typeof setInterval> | undefined;
  app.addHook('onReady', async () => {
    await sweep();
    sweeper = setInterval(() => void sweep(), SWEEP_INTERVAL_MS).unref();
  });
  app.addHook('onClose', async () => clearInterval(sweeper));

  async function auditContextOf(request: FastifyRequest) {
    const action = auditedAction(request);
    if (!action) return;
    const context = await requestAccountOf(db, request);
    const more = await requestSubjectOf(db, request, action);
    request.auditContext = { ...context, subject: { ...context.subject, ...more } };
  }

  // Recorded before the answer leaves: once a caller sees it, the trail has it.
  async function recordInAuditTrail(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const action = auditedAction(request);
    if (!action) return payload;
    const status = reply.statusCode;
    // The second step counts once its challenge named the person (it sets request.user): an
    // anonymous flood of made-up challenges stays out, like other 401s.
    const signingIn =
      action === 'auth.login' || (action === 'auth.loginTwoFactor' && request.user !== undefined);
    // 503: the database is gone, so there is nowhere to record it, and trying would only hold the
    // answer up for another timeout.
    if (status === 429 || status === 503 || (status === 401 && !signingIn)) return payload;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const email =
      request.user?.email ?? (typeof body.email === 'string' ? body.email.slice(0, 254) : 'anonymous');
    // A script's change is the person's, under the name of the key it used.
    const actor =
      request.auditActor ?? (request.apiKey ? `${email} (API key "${request.apiKey.name}")` : email);
    const context = request.auditContext;
    const record = async () => {
      // A sign-in, failed or not, goes into the trail of the person whose e-mail was given, if any:
      // they see the attempts on their account.
      const userId = signingIn ? await userIdOf(db, email) : (request.user?.id ?? null);
      const target = { ...targetOf(request), ...request.auditEffects };
      const outcome = outcomeOf(status);
      const subject = { ...context?.subject, ...(await answeredSubjectOf(db, request, action)) };
      await trail.append({
        userId,
        actor,
        address: request.ip,
        action,
        request: `${request.method} ${(request.routeOptions.url ?? '').replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`,
        accountId: context?.accountId ?? null,
        zoneId: context?.zoneId ?? null,
        target,
        outcome,
        summary: describeEvent({ actor, action, outcome, target, subject }),
        status,
        message: status >= 400 ? messageOf(payload) : null,
      });
    };
    const recorded = record().catch((err: unknown) =>
      request.log.error({ err, action }, 'could not record the change in the audit trail'),
    );
    // The answer waits for its row (normally a millisecond), but never long: a stalled database
    // delays the trail, not the person.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([recorded, new Promise((resolve) => (timer = setTimeout(resolve, AUDIT_WAIT_MS)))]);
    clearTimeout(timer);
    return payload;
  }

  app.addHook('onRoute', (route) => {
    // A route of several methods gets them if any is audited; each request is still asked.
    const methods = [route.method].flat();
    if (!methods.some((method) => auditedActionOf(method, route.url))) return;
    route.preHandler = [...[route.preHandler ?? []].flat(), auditContextOf];
    route.onSend = [...[route.onSend ?? []].flat(), recordInAuditTrail];
  });
}
