import { createHash, randomBytes } from 'node:crypto';
import {
  newUserSchema,
  PASSWORD_LINK_TTL_HOURS,
  type CreateUserRequest,
  type NewUser,
  type PasswordLink,
  type PasswordSetup,
  type PasswordSetupResult,
  type User,
  type UsersPage,
  type UsersPageQuery,
} from '@guardian/contract';
import type { PasswordHashing } from '../../config';
import { AppError } from '../../app-error';
import { hashPassword } from './password';
import type { GuardedChange, NewPasswordLink, UserRecord, UsersRepository } from './users.repository';

export function toUserDto(user: UserRecord): User {
  return {
    id: user.id,
    email: user.email,
    level: user.level,
    disabled: user.disabled,
    two_factor: user.twoFactor,
    last_sign_in_at: user.lastSignInAt?.toISOString() ?? null,
    created_at: user.createdAt.toISOString(),
    plan_id: user.planId,
  };
}

/** A set-password link's token is 256 random bits, so its SHA-256 is all that needs keeping. */
export const linkTokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest();

/** A change's answer, and how many of the person's API keys it revoked (for the audit trail). */
export interface KeysRevoked<T> {
  value: T;
  apiKeysRevoked: number;
}

export const LAST_ADMIN =
  'This is the last active administrator: make another administrator first, so someone can still manage Guardian.';
const userNotFound = () => new AppError('NOT_FOUND', 'User not found.');

/**
 * Managing people: the users CLI and the administrators' Users page. The last active administrator
 * can never be disabled, demoted or deleted (checked in the same transaction as the change); every
 * change ends the sessions it must end, and `sessionsEnded` lets this process forget them at once.
 */
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly hashing: PasswordHashing,
    /** Called with a user whose sessions just ended (the guard's kept sessions of them go). */
    private readonly sessionsEnded: (userId: number) => void = () => {},
  ) {}

  async create(input: NewUser): Promise<UserRecord> {
    const user = newUserSchema.parse(input);
    return this.users.create({
      email: user.email,
      passwordHash: await hashPassword(user.password, this.hashing),
      level: user.level,
    });
  }

  list(): Promise<UserRecord[]> {
    return this.users.list();
  }

  async page(query: UsersPageQuery): Promise<UsersPage> {
    const { users, total } = await this.users.page({
      search: query.search,
      limit: query.per_page,
      offset: (query.page - 1) * query.per_page,
    });
    return { users: users.map(toUserDto), totalItems: total };
  }

  /** An administrator creates a user with a first password, or with a one-time set-password link. */
  async createWithSetup(request: CreateUserRequest): Promise<PasswordSetupResult> {
    const { passwordHash, link, answer } = await this.prepare(request.password_setup);
    const user = await this.users.create({ email: request.email, passwordHash, level: request.level }, link);
    return { user: toUserDto(user), password_link: answer };
  }

  /** The new password (or a link) applies at once; the user's sessions, API keys and earlier links end. */
  async resetPassword(id: number, setup: PasswordSetup): Promise<KeysRevoked<PasswordSetupResult>> {
    const { passwordHash, link, answer } = await this.prepare(setup);
    const changed = await this.users.replacePassword(id, passwordHash, link);
    if (!changed) throw userNotFound();
    this.sessionsEnded(id);
    return {
      value: { user: toUserDto(changed.user), password_link: answer },
      apiKeysRevoked: changed.apiKeysRevoked,
    };
  }

  /** Another plan: their next additions meet its limits; nothing they have goes. */
  async setPlan(id: number, planId: number): Promise<{ user: User; planName: string }> {
    const outcome = await this.users.setPlan(id, planId);
    if (outcome === 'no_plan') throw new AppError('NOT_FOUND', 'Plan not found.');
    if (outcome === 'no_user') throw userNotFound();
    return { user: toUserDto(outcome.user), planName: outcome.planName };
  }

  /** A changed level ends the user's sessions and API keys. */
  async setLevel(id: number, level: number): Promise<KeysRevoked<User>> {
    return this.change(id, { kind: 'level', level });
  }

  /** Disabling ends the user's sessions and API keys (enabling brings none back). */
  async setDisabledById(id: number, disabled: boolean): Promise<KeysRevoked<User>> {
    return this.change(id, { kind: disabled ? 'disable' : 'enable' });
  }

  async remove(id: number): Promise<void> {
    await this.changeRecord(id, { kind: 'delete' });
  }

  /** The CLI's set-password: the new password applies at once, and the user's open sessions end. */
  async setPassword(email: string, password: string): Promise<void> {
    const valid = newUserSchema.shape.password.parse(password);
    const user = await this.byEmail(email);
    await this.users.replacePassword(user.id, await hashPassword(valid, this.hashing));
    this.sessionsEnded(user.id);
  }

  /** The CLI's disable and enable: a disabled user cannot sign in, and their sessions end. */
  async setDisabled(email: string, disabled: boolean): Promise<void> {
    await this.setDisabledById((await this.byEmail(email)).id, disabled);
  }

  private async byEmail(email: string): Promise<UserRecord> {
    const user = await this.users.findByEmailWithPasswordHash(email.trim());
    if (!user) throw new AppError('NOT_FOUND', `No user has the e-mail ${email}.`);
    return user;
  }

  /** The user as they are after a change that keeps them. */
  private async change(id: number, change: GuardedChange): Promise<KeysRevoked<User>> {
    const outcome = await this.changeRecord(id, change);
    return { value: toUserDto(outcome.user!), apiKeysRevoked: outcome.apiKeysRevoked };
  }

  /** The change's outcome: the user as they are after it (null once deleted). */
  private async changeRecord(id: number, change: GuardedChange) {
    const outcome = await this.users.changeGuarded(id, change);
    if (!outcome.done) {
      throw outcome.reason === 'not_found' ? userNotFound() : new AppError('CONFLICT', LAST_ADMIN);
    }
    if (outcome.sessionsEnded) this.sessionsEnded(id);
    return outcome;
  }

  /**
   * The password hash to store, and the link to keep and to answer. A link replaces the password with
   * one nobody knows (a real hash of random bytes, so signing in takes as long as with any password).
   */
  private async prepare(
    setup: PasswordSetup,
  ): Promise<{ passwordHash: string; link?: NewPasswordLink; answer: PasswordLink | null }> {
    if (setup.method === 'password') {
      return { passwordHash: await hashPassword(setup.password, this.hashing), answer: null };
    }
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + PASSWORD_LINK_TTL_HOURS * 3600 * 1000);
    return {
      passwordHash: await hashPassword(randomBytes(32).toString('base64'), this.hashing),
      link: { tokenSha256: linkTokenHash(token), expiresAt },
      answer: { token, expires_at: expiresAt.toISOString() },
    };
  }
}
