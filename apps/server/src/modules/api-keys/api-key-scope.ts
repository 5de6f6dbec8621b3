import { apiKeyEndpoints, authEndpoints } from '@guardian/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../app-error';
import type { Db } from '../../db';
import { endpointNameOf } from '../../endpoint-route';
import { requestAccountOf, type AuditContext } from '../audit';
import { guardedAccess } from '../../route-table';
import type { ApiKeyIdentity } from './api-keys.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key a script sent instead of a session (its person is `user`). */
    apiKey?: ApiKeyIdentity;
  }
}

const READS = new Set(['GET', 'HEAD']);
/** What a `ban` key may change: ban-list items, one at a time. */
const BAN_ACTIONS = new Set(['banListItems.add', 'banListItems.remove']);
/** Managing keys and sessions takes a person, not a key. */
const SESSION_ONLY = new Set([
  `${apiKeyEndpoints.list.method} ${apiKeyEndpoints.list.path}`,
  `${apiKeyEndpoints.create.method} ${apiKeyEndpoints.create.path}`,
  `${apiKeyEndpoints.revoke.method} ${apiKeyEndpoints.revoke.path}`,
  `${authEndpoints.logout.method} ${authEndpoints.logout.path}`,
]);

const forbidden = (message: string) => new AppError('FORBIDDEN', message);

/** What a key may call at all, by route: checked with the session, before the body is read. */
export function checkKeyRoute(request: FastifyRequest, key: ApiKeyIdentity, adminRoute: boolean): void {
  const url = request.routeOptions.url ?? '';
  if (adminRoute) throw forbidden('API keys cannot use administrator routes.');
  if (SESSION_ONLY.has(`${request.method} ${url}`))
    throw forbidden('Sign in to manage API keys and sessions.');
  if (READS.has(request.method)) return;
  if (key.access === 'read') throw forbidden('This API key can only read.');
  if (!BAN_ACTIONS.has(endpointNameOf(request.method, url) ?? '')) {
    throw forbidden('This API key can only read and add or remove ban-list items.');
  }
}

/**
 * A key limited to some accounts or lists reaches only those: the request's list or zone is looked up
 * (through the person's own accounts) before the handler runs. Attached, as they are registered, to
 * the routes a key can reach (those of the auth guard); a request without a limited key passes at once.
 */
export function registerKeyLimits(app: FastifyInstance, db: Db): void {
  function keyLimits(request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
    const key = request.apiKey;
    if (!key || (key.accountIds.length === 0 && key.listIds.length === 0)) return done();
    const params = (request.params ?? {}) as Record<string, unknown>;
    const listId = typeof params.list_id === 'string' ? params.list_id : undefined;
    const zoneId = typeof params.zone_id === 'string' ? params.zone_id : undefined;
    if (!listId && !zoneId) {
      return done(
        forbidden('This API key is limited to some accounts or lists: ask about one of them by its id.'),
      );
    }
    if (key.listIds.length > 0 && (!listId || !key.listIds.includes(listId))) {
      return done(forbidden('This API key is not allowed on this list.'));
    }
    if (key.accountIds.length === 0) return done();
    const allowed = ({ accountId }: AuditContext) =>
      accountId && key.accountIds.includes(accountId)
        ? undefined
        : forbidden('This API key is not allowed on this account.');
    if (request.auditContext) return done(allowed(request.auditContext));
    requestAccountOf(db, request).then(
      (context) => done(allowed(context)),
      (err: unknown) => done(err as Error),
    );
  }

  app.addHook('onRoute', (route) => {
    if (!guardedAccess(route)) return;
    route.preHandler = [...[route.preHandler ?? []].flat(), keyLimits];
  });
}
