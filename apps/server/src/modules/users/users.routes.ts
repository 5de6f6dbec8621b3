import { passwordLinkEndpoints, userEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { noContentRoute, route } from '../../endpoint-route';
import type { PasswordLinksService } from './password-links.service';
import type { KeysRevoked, UsersService } from './users.service';

/** The change's answer; the audit trail records how many of the person's API keys it revoked. */
export function keysRevoked<T>(request: FastifyRequest, { value, apiKeysRevoked }: KeysRevoked<T>): T {
  request.auditEffects = { api_keys_revoked: apiKeysRevoked };
  return value;
}

export const usersRoutes: FastifyPluginAsync<{
  users: UsersService;
  passwordLinks: PasswordLinksService;
}> = async (app, { users, passwordLinks }) => {
  // Administrators (access: 'admin'; user ids are not owned by anyone, so `owns` names the id checked).
  route(app, userEndpoints.list, async (request) => users.page(request.query));
  route(app, userEndpoints.create, async (request) => users.createWithSetup(request.body));
  route(
    app,
    userEndpoints.setPlan,
    async (request) => {
      const { user, planName } = await users.setPlan(request.params.id, request.body.plan_id);
      request.auditEffects = { plan: planName };
      return user;
    },
    { owns: ['id'] },
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
  noContentRoute(app, userEndpoints.remove, (request) => users.remove(request.params.id), { owns: ['id'] });

  // Whoever holds a set-password link. Once the link names its person, the trail records them.
  route(app, passwordLinkEndpoints.check, async (request) => {
    const link = await passwordLinks.check(request.body.token, request.ip);
    return { email: link.email, expires_at: link.expiresAt.toISOString() };
  });
  noContentRoute(app, passwordLinkEndpoints.use, async (request) => {
    const link = await passwordLinks.use(request.body.token, request.body.password, request.ip);
    request.user = { id: link.userId, email: link.email, level: link.level };
  });
};
