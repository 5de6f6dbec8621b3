import { ADMIN_LEVEL, type CurrentUser } from '@guardian/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Config } from '../../config';
import { AppError } from '../../errors';
import { isApiPath } from '../../route-table';
import type { UsersRepository } from '../users/users.repository';
import { verifySessionToken } from './session-token';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, as the database had them at most `sessionRecheckMs` ago. Set on every non-public /api route. */
    user: CurrentUser;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9_.-]+)$/;

/** Sessions people are using at once that stay known; beyond it the least recently used are read again. */
const MAX_SESSIONS = 10_000;

/**
 * The user behind each session token. Verifying a token and reading its user would cost a signature
 * check and a database round trip on every request, so a result is kept for `sessionRecheckMs` (never
 * past the token's expiry): a disabled user, a deleted one or a changed level takes effect within it.
 * Only successes are kept, so a refused token is checked again every time.
 */
class Sessions {
  private readonly knownSessions: LRUCache<string, CurrentUser> | undefined;

  constructor(
    private readonly users: UsersRepository,
    private readonly config: Config,
  ) {
    if (config.sessionRecheckMs > 0)
      this.knownSessions = new LRUCache({ max: MAX_SESSIONS, ttl: config.sessionRecheckMs });
  }

  /** The session's user: as kept, or verified and read anew (a 401 when either fails) and kept. */
  async userOf(token: string): Promise<CurrentUser> {
    const known = this.knownSessions?.get(token);
    if (known) return known;
    const session = await verifySessionToken(token, this.config);
    // The database, not the token, decides: a disabled or deleted user is out, a changed level applies.
    const user = await this.users.findById(session.userId);
    if (!user || user.disabled) {
      throw new AppError('UNAUTHORIZED', 'Your account is no longer active. Please sign in again.');
    }
    // A password change ends the sessions opened before it (tokens carry whole seconds).
    if (user.sessionsValidAfter && session.issuedAt < user.sessionsValidAfter.getTime()) {
      throw new AppError('UNAUTHORIZED', 'Your session has ended. Please sign in again.');
    }
    // Frozen: one object answers every request of the session until it is read again.
    const current: CurrentUser = Object.freeze({ id: user.id, email: user.email, level: user.level });
    const ttl = Math.min(this.config.sessionRecheckMs, session.expiresAt - Date.now());
    if (ttl > 0) this.knownSessions?.set(token, current, { ttl });
    return current;
  }
}

function bearerToken(request: FastifyRequest): string {
  // Only the header: a token in the URL would end up in logs, history and Referer headers.
  const header = request.headers.authorization;
  if (!header) throw new AppError('UNAUTHORIZED', 'Authentication required.');
  const token = BEARER.exec(header)?.[1];
  if (!token)
    throw new AppError('UNAUTHORIZED', 'Authentication required: send "Authorization: Bearer <token>".');
  return token;
}

/**
 * Guards every /api route before its body is read: `config.access` 'public' skips it, 'admin' also
 * needs level 0. Routes outside /api (the web app's files) are public. The guard is attached to each
 * route as it is registered (Fastify copies a GET's hooks to its HEAD route), so a request does not
 * look its route's options up again.
 */
export function registerAuthGuard(app: FastifyInstance, users: UsersRepository, config: Config): void {
  const sessions = new Sessions(users, config);
  const guard = (admin: boolean) => async (request: FastifyRequest) => {
    request.user = await sessions.userOf(bearerToken(request));
    if (admin && request.user.level !== ADMIN_LEVEL) {
      throw new AppError('FORBIDDEN', 'Only administrators can do this.');
    }
  };
  const guards = { user: guard(false), admin: guard(true) };
  app.decorateRequest('user');
  app.addHook('onRoute', (route) => {
    const access = route.config?.access ?? 'user';
    if (access === 'public' || !isApiPath(route.url)) return;
    route.onRequest = [...[route.onRequest ?? []].flat(), guards[access]];
  });
}
