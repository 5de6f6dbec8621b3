import { loginRequestSchema, type CurrentUser, type LoginResponse } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ModuleOptions } from '../../app';
import { AppError } from '../../errors';
import { UsersRepository } from '../users/users.repository';
import { bearerToken } from './auth.guard';
import { AuthService } from './auth.service';

export const authRoutes: FastifyPluginAsync<ModuleOptions> = async (app, { config, deps }) => {
  const auth = new AuthService(new UsersRepository(deps.db), app.sessions, config);

  app.post('/api/login', { config: { access: 'public' } }, async (request): Promise<LoginResponse> => {
    const credentials = loginRequestSchema.parse(request.body);
    return { token: await auth.login(credentials, request.ip) };
  });

  app.get('/api/me', async (request): Promise<CurrentUser> => request.user);

  // Ends the session on the server: its token is refused from now on (the guard checked it is open).
  app.post('/api/auth/logout', async (request, reply) => {
    if (request.body !== undefined) throw new AppError('BAD_REQUEST', 'Signing out takes no request body.');
    await app.sessions.end(bearerToken(request));
    return reply.code(204).send();
  });
};
