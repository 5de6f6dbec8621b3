import type { LoginRateLimit, PasswordHashing } from '../../config';
import { AppError } from '../../app-error';
import { LoginLimiter } from '../../login-limiter';
import { hashPassword } from './password';
import type { PasswordLinkRecord, UsersRepository } from './users.repository';
import { linkTokenHash } from './users.service';

const NOT_VALID =
  'This set-password link is not valid. Check that you copied all of it, or ask an administrator for a new one.';
const USED =
  'This set-password link has already been used. Sign in with the password you chose, or ask an administrator for a new link.';
const EXPIRED = 'This set-password link has expired. Ask an administrator for a new one.';
const DISABLED = 'This account is disabled. Ask an administrator.';
const TOO_MANY = 'Too many attempts with set-password links. Please wait a few minutes and try again.';

/** The limiter's name for every link attempt of an address (no e-mail is known before the link is). */
const LIMIT_KEY = 'set-password link';

/**
 * Set-password links, used by whoever holds one (no session: they have no password yet). Attempts
 * are limited per client address as sign-in is (`GUARDIAN_LOGIN_*`): a wrong, used or expired link
 * counts as a failure, so nobody can try tokens at speed (they are 256 random bits anyway).
 */
export class PasswordLinksService {
  private readonly limiter: LoginLimiter;

  constructor(
    private readonly users: UsersRepository,
    private readonly hashing: PasswordHashing,
    limits: LoginRateLimit,
    /** Called with a user whose sessions just ended. */
    private readonly sessionsEnded: (userId: number) => void = () => {},
  ) {
    this.limiter = new LoginLimiter(limits);
  }

  /** Whose the link is and until when it works; a clear 4xx when it cannot be used. */
  check(token: string, address: string): Promise<PasswordLinkRecord> {
    return this.usable(token, address);
  }

  /** Sets the person's password; the link is used up and their earlier sessions end. */
  async use(token: string, password: string, address: string): Promise<PasswordLinkRecord> {
    const link = await this.usable(token, address);
    const passwordHash = await hashPassword(password, this.hashing);
    // Claimed by one conditional UPDATE: of two requests with one link, the second finds it used.
    if (!(await this.users.usePasswordLink(linkTokenHash(token), passwordHash))) {
      throw new AppError('CONFLICT', USED);
    }
    this.sessionsEnded(link.userId);
    return link;
  }

  private usable(token: string, address: string): Promise<PasswordLinkRecord> {
    return this.limiter.attempt<PasswordLinkRecord>(LIMIT_KEY, address, TOO_MANY, async () => {
      const link = await this.users.findPasswordLink(linkTokenHash(token));
      if (!link) return { refusal: new AppError('NOT_FOUND', NOT_VALID) };
      if (link.usedAt) return { refusal: new AppError('CONFLICT', USED) };
      if (link.expiresAt.getTime() <= Date.now()) return { refusal: new AppError('CONFLICT', EXPIRED) };
      if (link.disabled) return { refusal: new AppError('CONFLICT', DISABLED) };
      return { value: link };
    });
  }
}
