import { authEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ModuleOptions } from '../../app';
import { route } from '../../endpoint-route';
import { AppError } from '../../errors';
import { UsersRepository } from '../users/users.repository';
import { bearerToken } from './auth.guard';
import { AuthService } from './auth.service';

export const authRoutes: FastifyPluginAsync<ModuleOptions> = async (app, { config, deps }) => {
  const auth = new AuthService(new UsersRepository(deps.db), app.sessions, config);

  route(app, authEndpoints.login, async (request) => ({
    token: await auth.login(request.body, request.ip),
  }));

  route(app, authEndpoints.me, async (request) => request.user);

  // Ends the session on the server: its token is refused from now on (the guard checked it is open).
  route(app, authEndpoints.logout, async (request, reply) => {
    if (request.body !== undefined) throw new AppError('BAD_REQUEST', 'Signing out takes no request body.');
    await app.sessions.end(bearerToken(request));
    return reply.code(204).send();
  });
};
