import { accountEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../endpoint-route';
import type { AccountsService } from './accounts.service';

export const accountsRoutes: FastifyPluginAsync<{ accounts: AccountsService }> = async (
  app,
  { accounts },
) => {
  route(app, accountEndpoints.list, async (request) => accounts.list(request.user.id));

  route(app, accountEndpoints.add, async (request, reply) => {
    const account = await accounts.add(request.user.id, request.body);
    return reply.code(201).send(account);
  });
};
