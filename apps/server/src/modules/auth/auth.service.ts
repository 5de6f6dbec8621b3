import { randomBytes } from 'node:crypto';
import type { LoginRequest } from '@guardian/contract';
import type { Config } from '../../config';
import { AppError } from '../../errors';
import { hashPassword, verifyPassword } from '../users/password';
import type { UsersRepository, UserWithPasswordHash } from '../users/users.repository';
import { LoginLimiter } from './login-limiter';
import type { Sessions } from './sessions';

export const INVALID_CREDENTIALS = 'Invalid e-mail or password.';
export const TOO_MANY_ATTEMPTS = 'Too many sign-in attempts. Please wait a few minutes and try again.';

export class AuthService {
  private readonly limiter: LoginLimiter;
  /** Verified against when the e-mail is unknown, so that answer takes as long as a wrong password. */
  private readonly dummyHash: Promise<string>;

  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: Sessions,
    config: Pick<Config, 'loginRateLimit' | 'passwordHashing'>,
  ) {
    this.limiter = new LoginLimiter(config.loginRateLimit);
    this.dummyHash = hashPassword(randomBytes(32).toString('base64'), config.passwordHashing);
  }

  /**
   * Opens a session and returns its token. An unknown e-mail, a wrong password and a disabled account get the same
   * answer after the same work, so sign-in never tells which e-mails exist.
   */
  async login(credentials: LoginRequest, address: string): Promise<string> {
    const attempt = await this.limiter.acquire(credentials.email, address);
    const { retryAfterSeconds } = attempt;
    if (retryAfterSeconds > 0) throw new AppError('RATE_LIMITED', TOO_MANY_ATTEMPTS, { retryAfterSeconds });

    let user: UserWithPasswordHash | undefined;
    let passwordMatches: boolean;
    try {
      user = await this.users.findByEmailWithPasswordHash(credentials.email);
      passwordMatches = await verifyPassword(
        user?.passwordHash ?? (await this.dummyHash),
        credentials.password,
      );
    } catch (err) {
      // Not checked (the database is down): it does not count against the person.
      attempt.settle('unchecked');
      throw err;
    }
    if (!user || user.disabled || !passwordMatches) {
      attempt.settle('failure');
      throw new AppError('UNAUTHORIZED', INVALID_CREDENTIALS);
    }
    attempt.settle('success');
    return this.sessions.open(user);
  }
}
