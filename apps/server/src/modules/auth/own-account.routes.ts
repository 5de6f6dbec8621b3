import { ownAccountEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';
import { noContentRoute, route } from '../../endpoint-route';
import { AppError } from '../../app-error';
import { keysRevoked } from '../users';
import { bearerToken } from './auth.guard';
import type { OwnAccountService } from './own-account.service';
import { sessionDeviceOf } from './sessions';

/** Sessions are a person's own: an API key (a script) may not see or end them, nor change the password. */
function sessionOnly(request: FastifyRequest): void {
  if (request.apiKey) throw new AppError('FORBIDDEN', 'Sign in to manage API keys and sessions.');
}

/** The id of the session the request was made with (the guard has verified its token). */
function currentSessionId(request: FastifyRequest): string | undefined {
  const sid = decodeJwt(bearerToken(request)).sid;
  return typeof sid === 'string' ? sid : undefined;
}

/** Every signed-in person's own password and sessions. */
export const ownAccountRoutes: FastifyPluginAsync<{ ownAccount: OwnAccountService }> = async (
  app,
  { ownAccount },
) => {
  route(app, ownAccountEndpoints.changePassword, async (request) => {
    sessionOnly(request);
    return {
      token: keysRevoked(
        request,
        await ownAccount.changePassword(request.user, request.body, sessionDeviceOf(request)),
      ),
    };
  });
  route(app, ownAccountEndpoints.sessions, async (request) => {
    sessionOnly(request);
    return ownAccount.list(request.user.id, currentSessionId(request));
  });
  route(app, ownAccountEndpoints.endOtherSessions, async (request) => {
    sessionOnly(request);
    const current = currentSessionId(request);
    if (!current) throw new AppError('FORBIDDEN', 'Sign in to manage API keys and sessions.');
    const ended = await ownAccount.endOthers(request.user.id, current);
    request.auditEffects = { sessions_ended: ended };
    return { ended };
  });
  noContentRoute(
    app,
    ownAccountEndpoints.endSession,
    async (request) => {
      sessionOnly(request);
      await ownAccount.end(request.user.id, request.params.id);
    },
    { owns: ['id'] },
  );
};
