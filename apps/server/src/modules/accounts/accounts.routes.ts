import { accountEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ModuleOptions } from '../../app';
import { route } from '../../endpoint-route';
import { accountsService } from './accounts.service';

export const accountsRoutes: FastifyPluginAsync<ModuleOptions> = async (app, { deps }) => {
  const accounts = accountsService(deps);

  route(app, accountEndpoints.list, async (request) => accounts.list(request.user.id));

  route(app, accountEndpoints.add, async (request, reply) => {
    const account = await accounts.add(request.user.id, request.body);
    return reply.code(201).send(account);
  });
};
