import { accountEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { noContentRoute, route } from '../../endpoint-route';
import type { PlanLimits } from '../plans';
import type { AccountsService } from './accounts.service';

export const accountsRoutes: FastifyPluginAsync<{ accounts: AccountsService; limits: PlanLimits }> = async (
  app,
  { accounts, limits },
) => {
  route(app, accountEndpoints.list, async (request) => accounts.list(request.user.id));

  route(app, accountEndpoints.add, async (request) => {
    const { account, listsSyncing } = await limits.within(request.user.id, 'accounts', 1, () =>
      accounts.add(request.user.id, request.body),
    );
    request.auditEffects = { lists_syncing: listsSyncing };
    return account;
  });

  // Ownership is checked in the service: an account is only ever found through its owner.
  route(
    app,
    accountEndpoints.update,
    async (request) => accounts.update(request.user.id, request.params.id, request.body),
    { owns: ['id'] },
  );

  noContentRoute(
    app,
    accountEndpoints.remove,
    async (request) => {
      request.auditEffects = { removed: await accounts.remove(request.user.id, request.params.id) };
    },
    { owns: ['id'] },
  );
};
