import { twoFactorEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { noContentRoute, route } from '../../endpoint-route';
import type { TwoFactorService } from './two-factor.service';

export const twoFactorRoutes: FastifyPluginAsync<{ twoFactor: TwoFactorService }> = async (
  app,
  { twoFactor },
) => {
  route(app, twoFactorEndpoints.status, async (request) => twoFactor.status(request.user.id));
  route(app, twoFactorEndpoints.setup, async (request) => twoFactor.setup(request.user));
  route(app, twoFactorEndpoints.enable, async (request) =>
    twoFactor.enable(request.user.id, request.body.code),
  );
  noContentRoute(app, twoFactorEndpoints.disable, (request) =>
    twoFactor.disable(request.user.id, request.body, request.ip),
  );
  route(app, twoFactorEndpoints.regenerateRecoveryCodes, async (request) =>
    twoFactor.regenerateRecoveryCodes(request.user.id, request.body, request.ip),
  );

  route(app, twoFactorEndpoints.policy, async () => ({ required: await twoFactor.isRequired() }));
  route(app, twoFactorEndpoints.require, async () => {
    await twoFactor.setRequired(true);
    return { required: true };
  });
  route(app, twoFactorEndpoints.unrequire, async () => {
    await twoFactor.setRequired(false);
    return { required: false };
  });
  noContentRoute(
    app,
    twoFactorEndpoints.reset,
    (request) => twoFactor.reset(request.params.id),
    // Administrators reach every person: the id is checked to exist (404), not to be the caller's.
    { owns: ['id'] },
  );
};
