import { ADMIN_LEVEL, type CurrentUser } from '@guardian/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { AppError } from '../../errors';
import { isApiPath } from '../../route-table';
import type { UsersRepository } from '../users/users.repository';
import { verifySessionToken } from './session-token';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, loaded from the database on every request. Set on every non-public /api route. */
    user: CurrentUser;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9_.-]+)$/;

async function authenticate(
  request: FastifyRequest,
  users: UsersRepository,
  config: Config,
): Promise<CurrentUser> {
  // Only the header: a token in the URL would end up in logs, history and Referer headers.
  const header = request.headers.authorization;
  if (!header) throw new AppError('UNAUTHORIZED', 'Authentication required.');
  const token = BEARER.exec(header)?.[1];
  if (!token)
    throw new AppError('UNAUTHORIZED', 'Authentication required: send "Authorization: Bearer <token>".');

  const userId = await verifySessionToken(token, config);
  // The database, not the token, decides: a disabled or deleted user is out, a changed level applies now.
  const user = await users.findById(userId);
  if (!user || user.disabled) {
    throw new AppError('UNAUTHORIZED', 'Your account is no longer active. Please sign in again.');
  }
  return { id: user.id, email: user.email, level: user.level };
}

/**
 * Guards every /api route before its body is read: `config.access` 'public' skips it, 'admin' also
 * needs level 0. Routes outside /api (the web app's files) are public.
 */
export function registerAuthGuard(app: FastifyInstance, users: UsersRepository, config: Config): void {
  app.decorateRequest('user');
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access ?? 'user';
    if (request.is404 || access === 'public' || !isApiPath(request.routeOptions.url ?? request.url)) return;
    request.user = await authenticate(request, users, config);
    if (access === 'admin' && request.user.level !== ADMIN_LEVEL) {
      throw new AppError('FORBIDDEN', 'Only administrators can do this.');
    }
  });
}
