import type { ChangePasswordRequest, CurrentUser, OwnSession } from '@guardian/contract';
import type { LoginRateLimit, PasswordHashing } from '../../config';
import { AppError } from '../../app-error';
import { LoginLimiter } from '../../login-limiter';
import {
  hashPassword,
  passwordStamp,
  verifyPassword,
  type KeysRevoked,
  type SessionDevice,
  type UsersRepository,
} from '../users';
import type { Sessions } from './sessions';

const WRONG_PASSWORD = 'The current password is wrong.';
const TOO_MANY = 'Too many wrong passwords. Please wait a few minutes and try again.';

/**
 * What every signed-in person manages about their own sign-in: their password and their sessions.
 * The current password is checked under the sign-in limit (per person and address), so a stolen
 * session is no way to guess it.
 */
export class OwnAccountService {
  private readonly limiter: LoginLimiter;

  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: Sessions,
    private readonly hashing: PasswordHashing,
    limits: LoginRateLimit,
  ) {
    this.limiter = new LoginLimiter(limits);
  }

  /**
   * Changes the password and ends every session and API key of the person, this session too, then
   * opens a new one for this browser and answers its token: whoever may have copied a token or a key
   * (the reason people change a password) is out, and the person carries on without signing in again.
   */
  async changePassword(
    user: CurrentUser,
    request: ChangePasswordRequest,
    device: SessionDevice & { address: string },
  ): Promise<KeysRevoked<string>> {
    await this.limiter.attempt(String(user.id), device.address, TOO_MANY, async () => {
      const stored = await this.users.findByIdWithPasswordHash(user.id);
      const matches =
        stored !== undefined && (await verifyPassword(stored.passwordHash, request.current_password));
      // A 400, not a 401: the session stays (a 401 would sign the person out).
      return matches
        ? { value: undefined }
        : {
            refusal: new AppError('BAD_REQUEST', WRONG_PASSWORD, {
              errors: [{ message: WRONG_PASSWORD, field: 'current_password' }],
            }),
          };
    });
    const passwordHash = await hashPassword(request.new_password, this.hashing);
    const changed = await this.users.replacePassword(user.id, passwordHash);
    if (!changed)
      throw new AppError('UNAUTHORIZED', 'Your account is no longer active. Please sign in again.');
    this.sessions.forgetUser(user.id);
    return {
      value: await this.sessions.open(changed.user, passwordStamp(passwordHash), device),
      apiKeysRevoked: changed.apiKeysRevoked,
    };
  }

  async list(userId: number, currentSessionId: string | undefined): Promise<OwnSession[]> {
    return (await this.users.sessionsOf(userId)).map((session) => ({
      id: session.id,
      created_at: session.createdAt.toISOString(),
      expires_at: session.expiresAt.toISOString(),
      last_seen_at: session.lastSeenAt?.toISOString() ?? null,
      user_agent: session.userAgent,
      address: session.address,
      current: session.id === currentSessionId,
    }));
  }

  /** Signs out every session of the person but this one; answers how many ended. */
  async endOthers(userId: number, currentSessionId: string): Promise<number> {
    const ended = await this.users.endOtherSessions(userId, currentSessionId);
    this.sessions.forgetUser(userId);
    return ended;
  }

  /** Ends one of the person's sessions (another person's id is simply not found). */
  async end(userId: number, sessionId: string): Promise<void> {
    if (!(await this.users.endOwnSession(userId, sessionId))) {
      throw new AppError('NOT_FOUND', 'Session not found.');
    }
    this.sessions.forgetUser(userId);
  }
}
