import { userEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ModuleOptions } from '../../app';
import { route } from '../../endpoint-route';
import { UsersRepository } from './users.repository';
import { toUserDto } from './users.service';

export const usersRoutes: FastifyPluginAsync<ModuleOptions> = async (app, { deps }) => {
  const users = new UsersRepository(deps.db);

  route(app, userEndpoints.list, async () => (await users.list()).map(toUserDto));
};
