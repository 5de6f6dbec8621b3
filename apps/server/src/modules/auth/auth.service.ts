import { randomBytes } from 'node:crypto';
import type { CurrentUser, LoginRequest, LoginResponse, SessionToken } from '@guardian/contract';
import type { Config } from '../../config';
import { AppError } from '../../app-error';
import { hashPassword, passwordStamp, verifyPassword } from '../users';
import type { SessionDevice, UsersRepository, UserWithPasswordHash } from '../users';
import type { TwoFactorService } from '../two-factor';
import { LoginLimiter } from '../../login-limiter';
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
    private readonly twoFactor: TwoFactorService,
    config: Pick<Config, 'loginRateLimit' | 'passwordHashing'>,
    /** Told of each session opened and its address (a sign-in from a new address, modules/alerts). */
    private readonly onSignedIn?: (userId: number, address: string) => Promise<void>,
  ) {
    this.limiter = new LoginLimiter(config.loginRateLimit);
    this.dummyHash = hashPassword(randomBytes(32).toString('base64'), config.passwordHashing);
  }

  /**
   * Opens a session and returns its token, or, for a person with two-factor on, a challenge for the
   * second step (`loginTwoFactor`). An unknown e-mail, a wrong password and a disabled account get the
   * same answer after the same work, so sign-in never tells which e-mails exist.
   */
  async login(
    credentials: LoginRequest,
    device: SessionDevice & { address: string },
  ): Promise<LoginResponse> {
    const user = await this.limiter.attempt<UserWithPasswordHash>(
      credentials.email,
      device.address,
      TOO_MANY_ATTEMPTS,
      async () => {
        const found = await this.users.findByEmailWithPasswordHash(credentials.email);
        const passwordMatches = await verifyPassword(
          found?.passwordHash ?? (await this.dummyHash),
          credentials.password,
        );
        return !found || found.disabled || !passwordMatches
          ? { refusal: new AppError('UNAUTHORIZED', INVALID_CREDENTIALS) }
          : { value: found };
      },
    );
    const stamp = passwordStamp(user.passwordHash);
    const next = await this.twoFactor.signInStep(user.id, stamp);
    if (next.kind === 'challenge') {
      return {
        two_factor_required: true,
        challenge_token: next.token,
        expires_at: next.expiresAt.toISOString(),
      };
    }
    const token = await this.sessions.open(user, stamp, device);
    await this.onSignedIn?.(user.id, device.address);
    return next.setupRequired ? { token, two_factor_setup_required: true } : { token };
  }

  /** The second step's person, from the password step's challenge (a 401 when it is not valid). */
  challengedUser(challengeToken: string) {
    return this.twoFactor.challengedUser(challengeToken);
  }

  /** The second step: a right code opens the session the password step held back. */
  async loginTwoFactor(
    person: CurrentUser & { challengeId: string; passwordStamp: string },
    code: string,
    device: SessionDevice & { address: string },
  ): Promise<SessionToken> {
    await this.twoFactor.verifySignInCode(person, code, device.address);
    const token = await this.sessions.open(person, person.passwordStamp, device);
    await this.onSignedIn?.(person.id, device.address);
    return { token };
  }
}
