import type { CurrentUser } from '@guardian/contract';
import { AppError } from '../../app-error';
import { isUniqueViolation, likeLiteral, type Db, type Queryable } from '../../db';
import { revokeAllKeys } from '../api-keys';
import { passwordStamp } from './password';

export interface UserRecord {
  id: number;
  email: string;
  level: number;
  disabled: boolean;
  createdAt: Date;
  /** Two-factor sign-in is on. */
  twoFactor: boolean;
  lastSignInAt: Date | null;
  planId: number;
}

export interface UserWithPasswordHash extends UserRecord {
  passwordHash: string;
}

// Named as the record's fields: a row is a UserRecord as it comes.
const COLUMNS = `id, email, level, disabled, created_at AS "createdAt", totp_enabled_at IS NOT NULL AS "twoFactor",
  last_sign_in_at AS "lastSignInAt", plan_id AS "planId"`;

/** A new set-password link: its token's SHA-256 (the token itself is never stored) and its expiry. */
export interface NewPasswordLink {
  tokenSha256: Buffer;
  expiresAt: Date;
}

/** What an administrator changes that could leave Guardian without an active administrator. */
export type GuardedChange =
  { kind: 'level'; level: number } | { kind: 'disable' } | { kind: 'enable' } | { kind: 'delete' };

/** The outcome of a guarded change: the user as it is now (null once deleted), or why not. */
export type GuardedOutcome =
  | { done: true; user: UserRecord | null; sessionsEnded: boolean; apiKeysRevoked: number }
  | { done: false; reason: 'not_found' | 'last_admin' };

/** A set-password link as found by its token's hash. */
export interface PasswordLinkRecord {
  userId: number;
  email: string;
  level: number;
  disabled: boolean;
  expiresAt: Date;
  usedAt: Date | null;
}

/** One of a person's sessions. */
export interface SessionRecord {
  id: string;
  createdAt: Date;
  expiresAt: Date;
  lastSeenAt: Date | null;
  userAgent: string | null;
  address: string | null;
}

/** Where a session is opened: the browser's User-Agent (cut to SESSION_USER_AGENT_MAX) and address. */
export interface SessionDevice {
  userAgent: string | null;
  address: string | null;
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
  constructor(private readonly db: Db) {}

  /** Gives the person the plan: the person as they are now, or which of the two is not there. */
  async setPlan(
    id: number,
    planId: number,
  ): Promise<{ user: UserRecord; planName: string } | 'no_user' | 'no_plan'> {
    // Without the user, the LEFT JOIN answers their columns as nulls.
    const [row] = await this.db.query<UserRecord & { planName: string | null }>(
      `WITH plan AS (SELECT id, name FROM plans WHERE id = $2),
            changed AS (UPDATE users SET plan_id = $2 WHERE id = $1 AND EXISTS (SELECT 1 FROM plan) RETURNING ${COLUMNS})
       SELECT changed.*, (SELECT name FROM plan) AS "planName" FROM (SELECT 1) one LEFT JOIN changed ON true`,
      [id, planId],
    );
    if (!row?.planName) return 'no_plan';
    const { planName, ...user } = row;
    return user.id === null ? 'no_user' : { user, planName };
  }

  /** Creates a user, and their set-password link when given, in one transaction. */
  async create(
    user: { email: string; passwordHash: string; level: number },
    link?: NewPasswordLink,
  ): Promise<UserRecord> {
    try {
      return await this.db.transaction(async (tx) => {
        const [created] = await tx.query<UserRecord>(
          `INSERT INTO users (email, password_hash, level) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
          [user.email, user.passwordHash, user.level],
        );
        if (link) await insertLink(tx, created!.id, link);
        return created!;
      });
    } catch (err) {
      if (isUniqueViolation(err))
        throw new AppError('CONFLICT', `A user with the e-mail ${user.email} already exists.`);
      throw err;
    }
  }

  async findByEmailWithPasswordHash(email: string): Promise<UserWithPasswordHash | undefined> {
    const [user] = await this.db.query<UserWithPasswordHash>(
      `SELECT ${COLUMNS}, password_hash AS "passwordHash" FROM users WHERE lower(email) = lower($1)`,
      [email],
    );
    return user;
  }

  list(): Promise<UserRecord[]> {
    return this.db.query<UserRecord>(`SELECT ${COLUMNS} FROM users ORDER BY id`);
  }

  async findById(id: number): Promise<UserRecord | undefined> {
    const [user] = await this.db.query<UserRecord>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id]);
    return user;
  }

  async findByIdWithPasswordHash(id: number): Promise<UserWithPasswordHash | undefined> {
    const [user] = await this.db.query<UserWithPasswordHash>(
      `SELECT ${COLUMNS}, password_hash AS "passwordHash" FROM users WHERE id = $1`,
      [id],
    );
    return user;
  }

  /** A page of users, oldest first; `search` matches e-mails containing it, in any case. */
  async page(query: { search: string; limit: number; offset: number }): Promise<{
    users: UserRecord[];
    total: number;
  }> {
    const pattern = `%${likeLiteral(query.search.toLowerCase())}%`;
    const [rows, [count]] = await Promise.all([
      this.db.query<UserRecord>(
        `SELECT ${COLUMNS} FROM users WHERE lower(email) LIKE $1 ORDER BY id LIMIT $2 OFFSET $3`,
        [pattern, query.limit, query.offset],
      ),
      this.db.query<{ count: number }>('SELECT count(*) AS count FROM users WHERE lower(email) LIKE $1', [
        pattern,
      ]),
    ]);
    return { users: rows, total: count!.count };
  }

  /**
   * Changes a user's level or state, or deletes them, unless that leaves no active administrator.
   * Safe under concurrent requests: the active administrators' rows are locked first (FOR UPDATE,
   * always in id order), so two changes that each leave "another" administrator take turns, and the
   * second sees the first's outcome. Disabling, deleting and a changed level end the user's sessions
   * (the token carries the level the web app reads) and their API keys.
   */
  async changeGuarded(id: number, change: GuardedChange): Promise<GuardedOutcome> {
    return this.db.transaction(async (tx): Promise<GuardedOutcome> => {
      const admins = await tx.query<{ id: number }>(
        'SELECT id FROM users WHERE level = 0 AND NOT disabled ORDER BY id FOR UPDATE',
      );
      const [target] = await tx.query<UserRecord>(`SELECT ${COLUMNS} FROM users WHERE id = $1 FOR UPDATE`, [
        id,
      ]);
      if (!target) return { done: false, reason: 'not_found' };
      const activeAdmin = admins.some((admin) => admin.id === id);
      const removesAdmin =
        change.kind === 'delete' ||
        change.kind === 'disable' ||
        (change.kind === 'level' && change.level !== 0);
      if (activeAdmin && removesAdmin && admins.length <= 1) return { done: false, reason: 'last_admin' };

      if (change.kind === 'delete') {
        // Their lists' item partitions have no foreign key to cascade (see migration 003): drop them.
        const lists = await tx.query<{ id: number }>(
          `SELECT b.id FROM ban_lists b JOIN cloudflare_accounts a ON a.id = b.account_ref WHERE a.user_id = $1`,
          [id],
        );
        await tx.query('DELETE FROM users WHERE id = $1', [id]);
        for (const list of lists) {
          if (!Number.isSafeInteger(list.id)) throw new Error(`Invalid ban list ref ${list.id}`);
          await tx.exec(
            `DROP TABLE IF EXISTS ban_list_items_${list.id}; DROP TABLE IF EXISTS ban_list_items_${list.id}_next;
             DROP TABLE IF EXISTS ban_list_items_${list.id}_import;`,
          );
        }
        return { done: true, user: null, sessionsEnded: true, apiKeysRevoked: 0 };
      }
      const endsSessions =
        change.kind === 'disable'
          ? !target.disabled
          : change.kind === 'level' && change.level !== target.level;
      const [changed] = await tx.query<UserRecord>(
        `UPDATE users SET level = $2, disabled = $3 WHERE id = $1 RETURNING ${COLUMNS}`,
        [
          id,
          change.kind === 'level' ? change.level : target.level,
          change.kind === 'disable' ? true : change.kind === 'enable' ? false : target.disabled,
        ],
      );
      let apiKeysRevoked = 0;
      if (endsSessions) {
        await tx.query('DELETE FROM sessions WHERE user_id = $1', [id]);
        apiKeysRevoked = await revokeAllKeys(tx, id);
      }
      return { done: true, user: changed!, sessionsEnded: endsSessions, apiKeysRevoked };
    });
  }

  /**
   * Replaces a user's password hash, ends their sessions, API keys and earlier set-password links,
   * and stores `link` when given, in one transaction. Undefined when no user has this id.
   */
  async replacePassword(
    id: number,
    passwordHash: string,
    link?: NewPasswordLink,
  ): Promise<{ user: UserRecord; apiKeysRevoked: number } | undefined> {
    return this.db.transaction(async (tx) => {
      const [user] = await tx.query<UserRecord>(
        `UPDATE users SET password_hash = $2 WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, passwordHash],
      );
      if (!user) return undefined;
      await tx.query('DELETE FROM sessions WHERE user_id = $1', [id]);
      const apiKeysRevoked = await revokeAllKeys(tx, id);
      await tx.query('DELETE FROM password_links WHERE user_id = $1', [id]);
      if (link) await insertLink(tx, id, link);
      return { user, apiKeysRevoked };
    });
  }

  async findPasswordLink(tokenSha256: Buffer): Promise<PasswordLinkRecord | undefined> {
    const [link] = await this.db.query<PasswordLinkRecord>(
      `SELECT l.user_id AS "userId", u.email, u.level, u.disabled, l.expires_at AS "expiresAt", l.used_at AS "usedAt"
         FROM password_links l JOIN users u ON u.id = l.user_id WHERE l.token_sha256 = $1`,
      [tokenSha256],
    );
    return link;
  }

  /**
   * Uses a set-password link: claimed by one conditional UPDATE (unused, unexpired, its user
   * enabled), so two requests with the same link cannot both set a password; the password changes and
   * the user's sessions and API keys end in the same transaction. False when the link could not be claimed.
   */
  async usePasswordLink(tokenSha256: Buffer, passwordHash: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [claimed] = await tx.query<{ user_id: number }>(
        `UPDATE password_links l SET used_at = now()
           FROM users u
          WHERE l.token_sha256 = $1 AND l.used_at IS NULL AND l.expires_at > now()
            AND u.id = l.user_id AND NOT u.disabled
          RETURNING l.user_id`,
        [tokenSha256],
      );
      if (!claimed) return false;
      await tx.query('UPDATE users SET password_hash = $2 WHERE id = $1', [claimed.user_id, passwordHash]);
      await tx.query('DELETE FROM sessions WHERE user_id = $1', [claimed.user_id]);
      await revokeAllKeys(tx, claimed.user_id);
      return true;
    });
  }

  /** The user's open sessions, newest first. */
  sessionsOf(userId: number): Promise<SessionRecord[]> {
    return this.db.query<SessionRecord>(
      `SELECT id, created_at AS "createdAt", expires_at AS "expiresAt", last_seen_at AS "lastSeenAt",
              user_agent AS "userAgent", address FROM sessions
        WHERE user_id = $1 AND expires_at > now() ORDER BY created_at DESC, id`,
      [userId],
    );
  }

  /** Ends every session of the user but `keptSessionId`; answers how many ended. API keys stay. */
  async endOtherSessions(userId: number, keptSessionId: string): Promise<number> {
    const rows = await this.db.query('DELETE FROM sessions WHERE user_id = $1 AND id <> $2 RETURNING id', [
      userId,
      keptSessionId,
    ]);
    return rows.length;
  }

  /** Ends one of the user's sessions; false when they have none with this id. */
  async endOwnSession(userId: number, sessionId: string): Promise<boolean> {
    const rows = await this.db.query('DELETE FROM sessions WHERE id = $1 AND user_id = $2 RETURNING id', [
      sessionId,
      userId,
    ]);
    return rows.length > 0;
  }

  async count(): Promise<number> {
    const [row] = await this.db.query<{ count: number }>('SELECT count(*) AS count FROM users');
    return row!.count;
  }

  /**
   * Records a new session (a sign-in: the user's `last_sign_in_at` is now), and ends the user's expired ones and, beyond `MAX_SESSIONS_PER_USER`,
   * their oldest, so no user holds more rows than that. Only while the user is as the sign-in checked
   * them (`checked`: their password's stamp and level, and enabled): false, and nothing opened,
   * otherwise. The user's row is locked first, so a password change, disable or level change either
   * commits before (and this sees it) or waits until the session is in (and ends it).
   */
  async openSession(
    session: { id: string; userId: number; expiresAt: Date; device?: SessionDevice },
    checked: { passwordStamp: string; level: number },
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [user] = await tx.query<{ password_hash: string; level: number; disabled: boolean }>(
        'SELECT password_hash, level, disabled FROM users WHERE id = $1 FOR UPDATE',
        [session.userId],
      );
      if (
        !user ||
        user.disabled ||
        user.level !== checked.level ||
        passwordStamp(user.password_hash) !== checked.passwordStamp
      ) {
        return false;
      }
      // Both statements see the table as it was: the delete keeps the newest MAX - 1 besides the new one.
      await tx.query(
        `WITH opened AS (
             INSERT INTO sessions (id, user_id, expires_at, user_agent, address) VALUES ($1, $2, $3, $5, $6)
           ), signed_in AS (
             UPDATE users SET last_sign_in_at = now() WHERE id = $2
           )
           DELETE FROM sessions WHERE user_id = $2 AND (
             expires_at <= now() OR id IN (
               SELECT id FROM sessions WHERE user_id = $2 ORDER BY created_at DESC, id OFFSET $4
             )
           )`,
        [
          session.id,
          session.userId,
          session.expiresAt,
          MAX_SESSIONS_PER_USER - 1,
          session.device?.userAgent ?? null,
          session.device?.address ?? null,
        ],
      );
      return true;
    });
  }

  /** The session's user, unless that user is gone or disabled (then undefined). */
  async findSession(userId: number, sessionId: string): Promise<SessionLookup | undefined> {
    // The same statement notes the session as used now (the profile's "last seen"), at most once a
    // minute: a write per request would cost more, a statement of its own a second round trip.
    const [row] = await this.db.query<{ id: number; email: string; level: number; open: boolean }>(
      `WITH seen AS (
         UPDATE sessions SET last_seen_at = now()
          WHERE id = $2 AND user_id = $1 AND (last_seen_at IS NULL OR last_seen_at < now() - interval '1 minute')
       )
       SELECT u.id, u.email, u.level, s.id IS NOT NULL AS open
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

async function insertLink(tx: Queryable, userId: number, link: NewPasswordLink): Promise<void> {
  await tx.query('INSERT INTO password_links (user_id, token_sha256, expires_at) VALUES ($1, $2, $3)', [
    userId,
    link.tokenSha256,
    link.expiresAt,
  ]);
}
