import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { serverApiEndpoints } from '@guardian/contract';
import { AppError } from '../../app-error';
import { isApiPath } from '../../route-table';
import { bearerToken } from '../auth';
import { ServersService, signedHeadersOf, type ServerIdentity } from './servers.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The registered server whose key a server-API request carried (its person is `user`). */
    reportingServer?: ServerIdentity;
  }
}

/**
 * Guards the routes declared `access: 'server'` (the server API), before the body is read: only a
 * server's own key passes (a session or a person's API key is a 401), and the request then acts as
 * the server's person, named in the audit trail as their server. A server key reaches no other route:
 * the person's guard reads it as neither a session nor an API key.
 */
export function registerServerKeyGuard(app: FastifyInstance, servers: ServersService): void {
  function serverKeyGuard(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
    let token: string;
    try {
      token = bearerToken(request);
      if (!ServersService.isServerKey(token))
        throw new AppError(
          'UNAUTHORIZED',
          'This route takes a server key (gs_...), not a session or an API key.',
        );
    } catch (err) {
      return done(err as Error);
    }
    servers.authenticate(token).then((server) => {
      acting(request, server);
      done();
    }, done);
  }

  // The signed webhook takes no key: its signature, checked over the body as it came (before its schema).
  function signatureGuard(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
    const serverId = Number((request.params as { server_id?: string }).server_id);
    servers.authenticateSigned(serverId, request.rawBody ?? '', request.headers).then((server) => {
      acting(request, server);
      done();
    }, done);
  }

  // Before the body is read: a call without the Standard Webhooks headers is no signed call (401).
  function signedCallGuard(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
    try {
      signedHeadersOf(request.headers);
      done();
    } catch (err) {
      done(err as Error);
    }
  }

  app.addHook('onRoute', (route) => {
    if (route.config?.access !== 'server' || !isApiPath(route.url)) return;
    if (route.url === serverApiEndpoints.webhook.path) {
      route.onRequest = [...[route.onRequest ?? []].flat(), signedCallGuard];
      route.preValidation = [signatureGuard, ...[route.preValidation ?? []].flat()];
    } else route.onRequest = [...[route.onRequest ?? []].flat(), serverKeyGuard];
  });
}

/** The request acts as the server's person, named in the audit trail as their server. */
function acting(request: FastifyRequest, server: ServerIdentity): void {
  request.reportingServer = server;
  request.user = server.user;
  request.auditActor = `${server.user.email} (server "${server.name}")`;
}
