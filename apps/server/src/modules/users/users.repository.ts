import { AppError } from '../../errors';
import { isUniqueViolation, type Queryable } from '../../db';

export interface UserRecord {
  id: number;
  email: string;
  level: number;
  disabled: boolean;
  createdAt: Date;
  /** Session tokens issued before this (whole) second are refused; null when the password never changed. */
  sessionsValidAfter: Date | null;
}

export interface UserWithPasswordHash extends UserRecord {
  passwordHash: string;
}

interface UserRow {
  id: number;
  email: string;
  level: number;
  disabled: boolean;
  created_at: Date;
  sessions_valid_after: Date | null;
  password_hash: string;
}

const COLUMNS = 'id, email, level, disabled, created_at, sessions_valid_after';

function toUser(row: UserRow): UserRecord {
  return {
    id: row.id,
    email: row.email,
    level: row.level,
    disabled: row.disabled,
    createdAt: row.created_at,
    sessionsValidAfter: row.sessions_valid_after,
  };
}

/** The only SQL on users. E-mails are matched case-insensitively, as the unique index is. */
export class UsersRepository {
  constructor(private readonly db: Queryable) {}

  async create(user: { email: string; passwordHash: string; level: number }): Promise<UserRecord> {
    try {
      const [row] = await this.db.query<UserRow>(
        `INSERT INTO users (email, password_hash, level) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
        [user.email, user.passwordHash, user.level],
      );
      return toUser(row!);
    } catch (err) {
      if (isUniqueViolation(err))
        throw new AppError('CONFLICT', `A user with the e-mail ${user.email} already exists.`);
      throw err;
    }
  }

  async findById(id: number): Promise<UserRecord | undefined> {
    const [row] = await this.db.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id]);
    return row && toUser(row);
  }

  async findByEmailWithPasswordHash(email: string): Promise<UserWithPasswordHash | undefined> {
    const [row] = await this.db.query<UserRow>(
      `SELECT ${COLUMNS}, password_hash FROM users WHERE lower(email) = lower($1)`,
      [email],
    );
    return row && { ...toUser(row), passwordHash: row.password_hash };
  }

  async list(): Promise<UserRecord[]> {
    return (await this.db.query<UserRow>(`SELECT ${COLUMNS} FROM users ORDER BY id`)).map(toUser);
  }

  async count(): Promise<number> {
    const [row] = await this.db.query<{ count: number }>('SELECT count(*) AS count FROM users');
    return row!.count;
  }

  /** Ends the user's open sessions too (see `sessions_valid_after`). False when no user has this e-mail. */
  async setPasswordHash(email: string, passwordHash: string): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE users SET password_hash = $2, sessions_valid_after = date_trunc('second', now())
        WHERE lower(email) = lower($1) RETURNING id`,
      [email, passwordHash],
    );
    return rows.length > 0;
  }

  /** False when no user has this e-mail. */
  async setDisabled(email: string, disabled: boolean): Promise<boolean> {
    const rows = await this.db.query(
      'UPDATE users SET disabled = $2 WHERE lower(email) = lower($1) RETURNING id',
      [email, disabled],
    );
    return rows.length > 0;
  }
}
