import { ownAccountEndpoints, passwordLinkEndpoints, userEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';
import { route } from '../../endpoint-route';
import { AppError } from '../../app-error';
import { bearerToken } from '../auth/auth.guard';
import { sessionDeviceOf } from '../auth/sessions';
import type { OwnAccountService } from './own-account.service';
import type { PasswordLinksService } from './password-links.service';
import type { KeysRevoked, UsersService } from './users.service';

/** Sessions are a person's own: an API key (a script) may not see or end them, nor change the password. */
function sessionOnly(request: FastifyRequest): void {
  if (request.apiKey) throw new AppError('FORBIDDEN', 'Sign in to manage API keys and sessions.');
}

/** The id of the session the request was made with (the guard has verified its token). */
function currentSessionId(request: FastifyRequest): string | undefined {
  const sid = decodeJwt(bearerToken(request)).sid;
  return typeof sid === 'string' ? sid : undefined;
}

/** The change's answer; the audit trail records how many of the person's API keys it revoked. */
function keysRevoked<T>(request: FastifyRequest, { value, apiKeysRevoked }: KeysRevoked<T>): T {
  request.auditEffects = { api_keys_revoked: apiKeysRevoked };
  return value;
}

export const usersRoutes: FastifyPluginAsync<{
  users: UsersService;
  passwordLinks: PasswordLinksService;
  ownAccount: OwnAccountService;
}> = async (app, { users, passwordLinks, ownAccount }) => {
  // Administrators (access: 'admin'; user ids are not owned by anyone, so `owns` names the id checked).
  route(app, userEndpoints.list, async (request) => users.page(request.query));
  route(app, userEndpoints.create, async (request, reply) =>
    reply.code(201).send(await users.createWithSetup(request.body)),
  );
  route(
    app,
    userEndpoints.setLevel,
    async (request) => keysRevoked(request, await users.setLevel(request.params.id, request.body.level)),
    {
      owns: ['id'],
    },
  );
  route(
    app,
    userEndpoints.disable,
    async (request) => keysRevoked(request, await users.setDisabledById(request.params.id, true)),
    {
      owns: ['id'],
    },
  );
  route(
    app,
    userEndpoints.enable,
    async (request) => (await users.setDisabledById(request.params.id, false)).value,
    {
      owns: ['id'],
    },
  );
  route(
    app,
    userEndpoints.resetPassword,
    async (request) => keysRevoked(request, await users.resetPassword(request.params.id, request.body)),
    { owns: ['id'] },
  );
  route(
    app,
    userEndpoints.remove,
    async (request, reply) => {
      await users.remove(request.params.id);
      return reply.code(204).send();
    },
    { owns: ['id'] },
  );

  // Whoever holds a set-password link. Once the link names its person, the trail records them.
  route(app, passwordLinkEndpoints.check, async (request) => {
    const link = await passwordLinks.check(request.body.token, request.ip);
    return { email: link.email, expires_at: link.expiresAt.toISOString() };
  });
  route(app, passwordLinkEndpoints.use, async (request, reply) => {
    const link = await passwordLinks.use(request.body.token, request.body.password, request.ip);
    request.user = { id: link.userId, email: link.email, level: link.level };
    return reply.code(204).send();
  });

  // Every signed-in person's own password and sessions.
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
  route(
    app,
    ownAccountEndpoints.endSession,
    async (request, reply) => {
      sessionOnly(request);
      await ownAccount.end(request.user.id, request.params.id);
      return reply.code(204).send();
    },
    { owns: ['id'] },
  );
};
