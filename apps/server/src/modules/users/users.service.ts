import { newUserSchema, type NewUser, type User } from '@guardian/contract';
import type { PasswordHashing } from '../../config';
import { AppError } from '../../errors';
import { hashPassword } from './password';
import type { UserRecord, UsersRepository } from './users.repository';

export function toUserDto(user: UserRecord): User {
  return {
    id: user.id,
    email: user.email,
    level: user.level,
    disabled: user.disabled,
    created_at: user.createdAt.toISOString(),
  };
}

/** Managing accounts: the users CLI today, an administrators' screen later. */
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly hashing: PasswordHashing,
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

  /** The new password applies at once, and the user's open sessions end (see UsersRepository). */
  async setPassword(email: string, password: string): Promise<void> {
    const valid = newUserSchema.shape.password.parse(password);
    if (!(await this.users.setPasswordHash(email.trim(), await hashPassword(valid, this.hashing)))) {
      throw new AppError('NOT_FOUND', `No user has the e-mail ${email}.`);
    }
  }

  /** A disabled user cannot sign in, and their open sessions stop working at the next request. */
  async setDisabled(email: string, disabled: boolean): Promise<void> {
    if (!(await this.users.setDisabled(email.trim(), disabled))) {
      throw new AppError('NOT_FOUND', `No user has the e-mail ${email}.`);
    }
  }
}
