import { randomUUID } from 'node:crypto';
import { SESSION_USER_AGENT_MAX, type CurrentUser } from '@guardian/contract';
import type { FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Config } from '../../config';
import { AppError } from '../../app-error';
import type { SessionDevice, UsersRepository } from '../users';
import { signSessionToken, verifySessionToken } from './session-token';

/** Sessions people are using at once that stay known; beyond it the least recently used are read again. */
const MAX_KNOWN_SESSIONS = 10_000;

export const CHANGED_WHILE_SIGNING_IN =
  'Your password or account changed while you were signing in. Please sign in again.';

/** Where a sign-in comes from, as its session keeps it: the User-Agent (cut) and the address. */
export function sessionDeviceOf(request: FastifyRequest): SessionDevice & { address: string } {
  const agent = request.headers['user-agent'];
  return {
    userAgent: typeof agent === 'string' && agent !== '' ? agent.slice(0, SESSION_USER_AGENT_MAX) : null,
    address: request.ip,
  };
}

/**
 * Opens a session for the user (a row in `sessions`, see UsersRepository) and answers its token, as
 * long as the password the sign-in checked (its `passwordStamp`) and the level are still the user's:
 * a 401 otherwise, so a sign-in in flight when the password changes opens nothing.
 */
export async function openSession(
  users: UsersRepository,
  user: { id: number; email: string; level: number },
  passwordStamp: string,
  config: Pick<Config, 'jwtSecret' | 'tokenTtlSeconds'>,
  device?: SessionDevice,
): Promise<string> {
  const sessionId = randomUUID();
  const issuedAt = Math.floor(Date.now() / 1000);
  const expiresAt = issuedAt + config.tokenTtlSeconds;
  const opened = await users.openSession(
    { id: sessionId, userId: user.id, expiresAt: new Date(expiresAt * 1000), device },
    { passwordStamp, level: user.level },
  );
  if (!opened) throw new AppError('UNAUTHORIZED', CHANGED_WHILE_SIGNING_IN);
  return signSessionToken({ user, sessionId, issuedAt, expiresAt }, config);
}

/**
 * The server's side of sessions: each token names a session row, so signing out, a password change and
 * disabling a user end sessions for good. Verifying a token and reading its session would cost a
 * signature check and a database round trip on every request, so a result is kept for
 * `sessionRecheckMs` (never past the token's expiry): a session ended by another process (the users
 * CLI, another server) is refused within it, one ended here (signing out) at once. Only successes are
 * kept, so a refused token is checked again every time.
 */
export class Sessions {
  private readonly known: LRUCache<string, CurrentUser> | undefined;
  /**
   * Reads in flight, by token: the requests of a session that arrive while it is being read (a page
   * firing its calls at once, or a script's connections each time the kept result runs out) wait for
   * that one read instead of each sending its own to the database.
   */
  private readonly reading = new Map<string, Promise<CurrentUser>>();
  /** Bumped when sessions end here: a read that started before does not keep its result. */
  private generation = 0;

  /** `clock` (ms) times `sessionRecheckMs`; without it, the cache's own (performance.now()). */
  constructor(
    private readonly users: UsersRepository,
    private readonly config: Pick<Config, 'jwtSecret' | 'tokenTtlSeconds' | 'sessionRecheckMs'>,
    clock?: () => number,
  ) {
    if (config.sessionRecheckMs > 0)
      this.known = new LRUCache({
        max: MAX_KNOWN_SESSIONS,
        ttl: config.sessionRecheckMs,
        // Read at every lookup (lru-cache otherwise reuses a reading for 1 ms), so a test's move counts at once.
        ...(clock && { perf: { now: clock }, ttlResolution: 0 }),
      });
  }

  /** See openSession: `passwordStamp` is that of the password the sign-in checked. */
  open(
    user: { id: number; email: string; level: number },
    passwordStamp: string,
    device?: SessionDevice,
  ): Promise<string> {
    return openSession(this.users, user, passwordStamp, this.config, device);
  }

  /** The session's user if it is kept (verified and read within `sessionRecheckMs`), without a promise. */
  knownUser(token: string): CurrentUser | undefined {
    return this.known?.get(token);
  }

  /** The session's user: as kept, or verified and read anew (a 401 when either fails) and kept. */
  async userOf(token: string): Promise<CurrentUser> {
    const known = this.knownUser(token);
    if (known) return known;
    if (!this.known) return this.read(token);
    let reading = this.reading.get(token);
    if (!reading) {
      const read: Promise<CurrentUser> = this.read(token).finally(() => {
        if (this.reading.get(token) === read) this.reading.delete(token);
      });
      this.reading.set(token, (reading = read));
    }
    return reading;
  }

  private async read(token: string): Promise<CurrentUser> {
    const generation = this.generation;
    const session = await verifySessionToken(token, this.config);
    // The database, not the token, decides: a disabled or deleted user is out, a changed level applies.
    // Each read notes the session as seen (the profile's "last seen"; written at most once a minute).
    const found = await this.users.findSession(session.userId, session.sessionId);
    if (!found) {
      throw new AppError('UNAUTHORIZED', 'Your account is no longer active. Please sign in again.');
    }
    if (!found.open) throw new AppError('UNAUTHORIZED', 'Your session has ended. Please sign in again.');
    // Frozen: one object answers every request of the session until it is read again.
    const user = Object.freeze(found.user);
    const ttl = Math.min(this.config.sessionRecheckMs, session.expiresAt - Date.now());
    if (ttl > 0 && generation === this.generation) this.known?.set(token, user, { ttl });
    return user;
  }

  /**
   * Forgets what is kept of a user's sessions, after some of them were ended (an administrator's
   * change, a password change, a session ended from the profile): this process reads them again at
   * their next request and refuses the ended ones at once.
   */
  forgetUser(userId: number): void {
    if (!this.known) return;
    this.generation++;
    this.reading.clear();
    const tokens = [...this.known.entries()].filter(([, user]) => user.id === userId).map(([token]) => token);
    for (const token of tokens) this.known.delete(token);
  }

  /** Signs the token's session out: refused at once here, within `sessionRecheckMs` elsewhere. */
  async end(token: string): Promise<void> {
    const session = await verifySessionToken(token, this.config);
    await this.users.endSession(session.userId, session.sessionId);
    this.generation++;
    this.reading.delete(token);
    this.known?.delete(token);
  }
}
