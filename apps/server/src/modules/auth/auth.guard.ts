import { ADMIN_LEVEL, type CurrentUser } from '@guardian/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { AppError } from '../../app-error';
import { guardedAccess } from '../../route-table';
import { checkKeyRoute } from '../api-keys';
import { ApiKeysService } from '../api-keys';
import type { Sessions } from './sessions';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, as the database had them at most `sessionRecheckMs` ago. Set on every non-public /api route. */
    user: CurrentUser;
  }
  interface FastifyInstance {
    /** The sessions the guard checks: the auth routes open and end them through it. */
    sessions: Sessions;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9_.-]+)$/;

/**
 * The token each connection's last request carried, by its header's text. A connection's requests
 * mostly carry the same header: a repeat gets the same token string back without the pattern, and a
 * kept session is found by a string whose hash V8 already keeps (a new token string of ~250
 * characters is hashed again for every lookup).
 */
const lastTokens = new WeakMap<object, { header: string; token: string }>();

/** The request's bearer token (a 401 without one). */
export function bearerToken(request: FastifyRequest): string {
  // Only the header: a token in the URL would end up in logs, history and Referer headers.
  const header = request.headers.authorization;
  if (!header) throw new AppError('UNAUTHORIZED', 'Authentication required.');
  const connection = request.socket as object | undefined;
  const last = connection && lastTokens.get(connection);
  if (last?.header === header) return last.token;
  const token = BEARER.exec(header)?.[1];
  if (!token)
    throw new AppError('UNAUTHORIZED', 'Authentication required: send "Authorization: Bearer <token>".');
  if (connection) lastTokens.set(connection, { header, token });
  return token;
}

/**
 * Guards every /api route before its body is read: `config.access` 'public' skips it, 'admin' also
 * needs level 0. Routes outside /api (the web app's files) are public. The guard is attached to each
 * route as it is registered (Fastify copies a GET's hooks to its HEAD route), so a request does not
 * look its route's options up again. A session kept by `sessions` passes without a promise: most
 * requests are of a session seen within `sessionRecheckMs`.
 */
export function registerAuthGuard(app: FastifyInstance, sessions: Sessions, apiKeys: ApiKeysService): void {
  app.decorate('sessions', sessions);
  const signIn = (request: FastifyRequest, user: CurrentUser, admin: boolean) => {
    request.user = user;
    if (admin && user.level !== ADMIN_LEVEL) {
      throw new AppError('FORBIDDEN', 'Only administrators can do this.');
    }
  };
  const signInLater = async (request: FastifyRequest, token: string, admin: boolean) => {
    if (ApiKeysService.isApiKey(token)) {
      // A script's key: its person, within what the key allows.
      const { user, key } = await apiKeys.authenticate(token);
      request.user = user;
      request.apiKey = key;
      checkKeyRoute(request, key, admin);
      return;
    }
    signIn(request, await sessions.userOf(token), admin);
  };
  const guard = (admin: boolean) =>
    function authGuard(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
      try {
        const token = bearerToken(request);
        const known = ApiKeysService.isApiKey(token) ? undefined : sessions.knownUser(token);
        if (!known) return void signInLater(request, token, admin).then(() => done(), done);
        signIn(request, known, admin);
      } catch (err) {
        return done(err as Error);
      }
      done();
    };
  const guards = { user: guard(false), admin: guard(true) };
  app.decorateRequest('user');
  app.addHook('onRoute', (route) => {
    const access = guardedAccess(route);
    if (!access) return;
    route.onRequest = [...[route.onRequest ?? []].flat(), guards[access]];
  });
}
