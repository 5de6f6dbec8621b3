import { loginRequestSchema, type CurrentUser, type LoginResponse } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ModuleOptions } from '../../app';
import { UsersRepository } from '../users/users.repository';
import { AuthService } from './auth.service';

export const authRoutes: FastifyPluginAsync<ModuleOptions> = async (app, { config, deps }) => {
  const auth = new AuthService(new UsersRepository(deps.db), config);

  app.post('/api/login', { config: { access: 'public' } }, async (request): Promise<LoginResponse> => {
    const credentials = loginRequestSchema.parse(request.body);
    return { token: await auth.login(credentials, request.ip) };
  });

  app.get('/api/me', async (request): Promise<CurrentUser> => request.user);
};
