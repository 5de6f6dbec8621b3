import type { AccountTokenStatus } from '@guardian/contract';
import { isUniqueViolation, type Queryable } from '../../db';
import { AppError } from '../../app-error';

/** How often each account's token is asked about again (modules/accounts/token-checks.ts). */
export const TOKEN_CHECK_EVERY_MS = 6 * 3_600_000;

/** What Cloudflare said of a token when it was last asked (migration 032). */
export interface TokenState {
  status: AccountTokenStatus;
  expiresOn: Date | null;
  checkedAt: Date;
}

export interface AccountRecord {
  /** Guardian's id of the account row. */
  id: number;
  userId: number;
  accountName: string;
  /** Cloudflare's account id. */
  accountId: string;
  tokenEncrypted: string;
  tokenLast4: string;
}

/** An account as the accounts screen shows it: with what its token's last check found. */
export interface AccountWithTokenState extends AccountRecord {
  /** Null until the token is first checked. */
  tokenStatus: AccountTokenStatus | null;
  tokenExpiresOn: Date | null;
  tokenCheckedAt: Date | null;
}

// Named as the record's fields: a row is an AccountWithTokenState as it comes.
const COLUMNS = `id, user_id AS "userId", account_name AS "accountName", account_id AS "accountId",
  token_encrypted AS "tokenEncrypted", token_last4 AS "tokenLast4", token_status AS "tokenStatus",
  token_expires_on AS "tokenExpiresOn", token_checked_at AS "tokenCheckedAt"`;

const nameTaken = () => new AppError('CONFLICT', 'This account has already been added.');

/**
 * The only SQL on Cloudflare accounts. Every read takes the user id: an account is only ever found
 * through its owner, which is how ownership is enforced for everything under it.
 */
export class AccountsRepository {
  constructor(private readonly db: Queryable) {}

  listForUser(userId: number): Promise<AccountWithTokenState[]> {
    return this.db.query<AccountWithTokenState>(
      `SELECT ${COLUMNS} FROM cloudflare_accounts WHERE user_id = $1 ORDER BY id`,
      [userId],
    );
  }

  async findOwned(userId: number, id: number): Promise<AccountWithTokenState | undefined> {
    const [account] = await this.db.query<AccountWithTokenState>(
      `SELECT ${COLUMNS} FROM cloudflare_accounts WHERE user_id = $1 AND id = $2`,
      [userId, id],
    );
    return account;
  }

  async findOwnedByName(userId: number, accountName: string): Promise<AccountWithTokenState | undefined> {
    const [account] = await this.db.query<AccountWithTokenState>(
      `SELECT ${COLUMNS} FROM cloudflare_accounts WHERE user_id = $1 AND lower(account_name) = lower($2)`,
      [userId, accountName],
    );
    return account;
  }

  async findOwnedByCloudflareId(
    userId: number,
    accountId: string,
  ): Promise<AccountWithTokenState | undefined> {
    const [account] = await this.db.query<AccountWithTokenState>(
      `SELECT ${COLUMNS} FROM cloudflare_accounts WHERE user_id = $1 AND account_id = $2`,
      [userId, accountId],
    );
    return account;
  }

  async insert(account: Omit<AccountRecord, 'id'>, token: TokenState): Promise<AccountWithTokenState> {
    try {
      const [added] = await this.db.query<AccountWithTokenState>(
        `INSERT INTO cloudflare_accounts
           (user_id, account_name, account_id, token_encrypted, token_last4, token_status, token_expires_on,
            token_checked_at, token_check_due)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8::timestamptz + $9 * interval '1 millisecond')
         RETURNING ${COLUMNS}`,
        [
          account.userId,
          account.accountName,
          account.accountId,
          account.tokenEncrypted,
          account.tokenLast4,
          token.status,
          token.expiresOn,
          token.checkedAt,
          TOKEN_CHECK_EVERY_MS,
        ],
      );
      return added!;
    } catch (err) {
      // Two adds racing past the service's checks still meet the unique indexes.
      if (isUniqueViolation(err)) throw nameTaken();
      throw err;
    }
  }

  /** Renames the person's account and/or gives it a new (already verified) token; undefined when not theirs. */
  async update(
    userId: number,
    id: number,
    change: {
      accountName?: string;
      token?: { encrypted: string; last4: string; state: TokenState };
    },
  ): Promise<AccountWithTokenState | undefined> {
    try {
      const [account] = await this.db.query<AccountWithTokenState>(
        `UPDATE cloudflare_accounts SET
           account_name = COALESCE($3, account_name),
           token_encrypted = COALESCE($4, token_encrypted),
           token_last4 = COALESCE($5, token_last4),
           token_status = CASE WHEN $4::text IS NULL THEN token_status ELSE $6 END,
           token_expires_on = CASE WHEN $4::text IS NULL THEN token_expires_on ELSE $7 END,
           token_checked_at = CASE WHEN $4::text IS NULL THEN token_checked_at ELSE $8 END,
           token_check_due = CASE WHEN $4::text IS NULL THEN token_check_due
                                  ELSE $8::timestamptz + $9 * interval '1 millisecond' END
         WHERE user_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [
          userId,
          id,
          change.accountName ?? null,
          change.token?.encrypted ?? null,
          change.token?.last4 ?? null,
          change.token?.state.status ?? null,
          change.token?.state.expiresOn ?? null,
          change.token?.state.checkedAt ?? null,
          TOKEN_CHECK_EVERY_MS,
        ],
      );
      return account;
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken();
      throw err;
    }
  }

  /**
   * Records a check's answer, unless the token was replaced since the check began (its ciphertext
   * differs): the replacement's own state is newer.
   */
  async setTokenState(id: number, tokenEncrypted: string, state: TokenState): Promise<void> {
    await this.db.query(
      `UPDATE cloudflare_accounts SET token_status = $3, token_expires_on = $4, token_checked_at = $5
       WHERE id = $1 AND token_encrypted = $2`,
      [id, tokenEncrypted, state.status, state.expiresOn, state.checkedAt],
    );
  }

  /**
   * Takes up to `limit` accounts (of anyone) due a token check at `now`, the longest due first, and
   * makes them due again at `nextDue`: another process's sweep skips them (SKIP LOCKED, then the new
   * time), so each token is asked about once per round across processes.
   */
  claimTokenChecks(now: Date, nextDue: Date, limit: number): Promise<AccountWithTokenState[]> {
    return this.db.query<AccountWithTokenState>(
      `UPDATE cloudflare_accounts SET token_check_due = $2
       WHERE id IN (
         SELECT id FROM cloudflare_accounts WHERE token_check_due <= $1
         ORDER BY token_check_due, id LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING ${COLUMNS}`,
      [now, nextDue, limit],
    );
  }

  /** Makes the account's token due a check at `at` (sooner, after a check Cloudflare did not answer). */
  async checkTokenAt(id: number, at: Date): Promise<void> {
    await this.db.query('UPDATE cloudflare_accounts SET token_check_due = $2 WHERE id = $1', [id, at]);
  }

  /** Jobs queued or running on the account (a sync, an expiry run, Ban everywhere...). */
  async activeJobs(id: number): Promise<number> {
    const [row] = await this.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM jobs WHERE account_id = $1 AND state IN ('queued', 'running')`,
      [id],
    );
    return row?.count ?? 0;
  }

  /** Guardian's ids of the account's lists, and how many zones it has. */
  async holdings(id: number): Promise<{ lists: number[]; zones: number }> {
    const [row] = await this.db.query<{ lists: number[] | null; zones: number }>(
      `SELECT (SELECT array_agg(id ORDER BY id) FROM ban_lists WHERE account_ref = $1) AS lists,
              (SELECT count(*)::int FROM zones WHERE account_ref = $1) AS zones`,
      [id],
    );
    return { lists: (row?.lists ?? []).map(Number), zones: row?.zones ?? 0 };
  }

  /**
   * Removes what the person's snapshots kept of the account (migration 009: `target` names each list's
   * or record's account by `accountRef`): a snapshot wholly about it goes; a Clean All of several
   * accounts loses this account's items only (its other lists stay restorable, and a restore skips a
   * list whose account is gone). Answers how many snapshots went.
   */
  async deleteSnapshotsOf(userId: number, id: number): Promise<number> {
    await this.db.query(
      `WITH parts AS (
         SELECT s.id, (l.n - 1)::int AS list_index
         FROM snapshots s, jsonb_array_elements(s.target -> 'lists') WITH ORDINALITY AS l (list, n)
         WHERE s.user_id = $1 AND jsonb_typeof(s.target -> 'lists') = 'array'
           AND (l.list ->> 'accountRef')::bigint = $2),
       gone AS (
         DELETE FROM snapshot_items i USING parts p
         WHERE i.snapshot_id = p.id AND i.list_index = p.list_index RETURNING i.snapshot_id)
       UPDATE snapshots s SET items = greatest(s.items - g.count, 0)
       FROM (SELECT snapshot_id, count(*)::int AS count FROM gone GROUP BY snapshot_id) g
       WHERE s.id = g.snapshot_id`,
      [userId, id],
    );
    const removed = await this.db.query(
      `DELETE FROM snapshots s WHERE s.user_id = $1 AND (
         (s.target -> 'record' ->> 'accountRef')::bigint = $2
         OR (jsonb_typeof(s.target -> 'lists') = 'array' AND jsonb_array_length(s.target -> 'lists') > 0
             AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(s.target -> 'lists') AS l (list)
                             WHERE (l.list ->> 'accountRef')::bigint <> $2)))
       RETURNING id`,
      [userId, id],
    );
    return removed.length;
  }

  /** Deletes the account row (its lists and zones go with it: ON DELETE CASCADE); false when not theirs. */
  async delete(userId: number, id: number): Promise<boolean> {
    const rows = await this.db.query(
      'DELETE FROM cloudflare_accounts WHERE user_id = $1 AND id = $2 RETURNING id',
      [userId, id],
    );
    return rows.length > 0;
  }
}
