import type { User } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ModuleOptions } from '../../app';
import { UsersRepository } from './users.repository';
import { toUserDto } from './users.service';

export const usersRoutes: FastifyPluginAsync<ModuleOptions> = async (app, { deps }) => {
  const users = new UsersRepository(deps.db);

  app.get('/api/admin/users', { config: { access: 'admin' } }, async (): Promise<User[]> =>
    (await users.list()).map(toUserDto),
  );
};
