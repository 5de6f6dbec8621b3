import type { CurrentUser } from '@guardian/contract';
import { AppError } from '../../errors';
import { isUniqueViolation, type Queryable } from '../../db';

export interface UserRecord {
  id: number;
  email: string;
  level: number;
  disabled: boolean;
  createdAt: Date;
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
  password_hash: string;
}

const COLUMNS = 'id, email, level, disabled, created_at';

function toUser(row: UserRow): UserRecord {
  return {
    id: row.id,
    email: row.email,
    level: row.level,
    disabled: row.disabled,
    createdAt: row.created_at,
  };
}

/** A session's user as the guard needs it, and whether the session is still open. */
export interface SessionLookup {
  user: CurrentUser;
  /** False when the session was ended (signed out, replaced) or has expired. */
  open: boolean;
}

/** Sessions one user may hold at once; opening one more ends their oldest. */
export const MAX_SESSIONS_PER_USER = 100;

/**
 * The only SQL on users and their sessions. E-mails are matched case-insensitively, as the unique
 * index is. A password change and disabling end the user's sessions in the same statement.
 */
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

  /** Ends the user's sessions too. False when no user has this e-mail. */
  async setPasswordHash(email: string, passwordHash: string): Promise<boolean> {
    const rows = await this.db.query(
      `WITH changed AS (
         UPDATE users SET password_hash = $2 WHERE lower(email) = lower($1) RETURNING id
       ), ended AS (
         DELETE FROM sessions WHERE user_id IN (SELECT id FROM changed)
       )
       SELECT id FROM changed`,
      [email, passwordHash],
    );
    return rows.length > 0;
  }

  /** Disabling ends the user's sessions for good. False when no user has this e-mail. */
  async setDisabled(email: string, disabled: boolean): Promise<boolean> {
    const rows = await this.db.query(
      `WITH changed AS (
         UPDATE users SET disabled = $2 WHERE lower(email) = lower($1) RETURNING id
       ), ended AS (
         DELETE FROM sessions WHERE $2 AND user_id IN (SELECT id FROM changed)
       )
       SELECT id FROM changed`,
      [email, disabled],
    );
    return rows.length > 0;
  }

  /**
   * Records a new session, and ends the user's expired ones and, beyond `MAX_SESSIONS_PER_USER`,
   * their oldest, so no user holds more rows than that.
   */
  async openSession(session: { id: string; userId: number; expiresAt: Date }): Promise<void> {
    // Both statements see the table as it was: the delete keeps the newest MAX - 1 besides the new one.
    await this.db.query(
      `WITH opened AS (
         INSERT INTO sessions (id, user_id, expires_at) VALUES ($1, $2, $3)
       )
       DELETE FROM sessions WHERE user_id = $2 AND (
         expires_at <= now() OR id IN (
           SELECT id FROM sessions WHERE user_id = $2 ORDER BY created_at DESC, id OFFSET $4
         )
       )`,
      [session.id, session.userId, session.expiresAt, MAX_SESSIONS_PER_USER - 1],
    );
  }

  /** The session's user, unless that user is gone or disabled (then undefined). */
  async findSession(userId: number, sessionId: string): Promise<SessionLookup | undefined> {
    const [row] = await this.db.query<{ id: number; email: string; level: number; open: boolean }>(
      `SELECT u.id, u.email, u.level, s.id IS NOT NULL AS open
         FROM users u
         LEFT JOIN sessions s ON s.id = $2 AND s.user_id = u.id AND s.expires_at > now()
        WHERE u.id = $1 AND NOT u.disabled`,
      [userId, sessionId],
    );
    return row && { user: { id: row.id, email: row.email, level: row.level }, open: row.open };
  }

  /** Ends one session (signing out); nothing when it had already ended. */
  async endSession(userId: number, sessionId: string): Promise<void> {
    await this.db.query('DELETE FROM sessions WHERE id = $1 AND user_id = $2', [sessionId, userId]);
  }
}
