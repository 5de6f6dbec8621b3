import { isUniqueViolation, type Queryable } from '../../db';
import { AppError } from '../../app-error';

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

interface AccountRow {
  id: number;
  user_id: number;
  account_name: string;
  account_id: string;
  token_encrypted: string;
  token_last4: string;
}

const COLUMNS = 'id, user_id, account_name, account_id, token_encrypted, token_last4';

function toAccount(row: AccountRow): AccountRecord {
  return {
    id: row.id,
    userId: row.user_id,
    accountName: row.account_name,
    accountId: row.account_id,
    tokenEncrypted: row.token_encrypted,
    tokenLast4: row.token_last4,
  };
}

/**
 * The only SQL on Cloudflare accounts. Every read takes the user id: an account is only ever found
 * through its owner, which is how ownership is enforced for everything under it.
 */
export class AccountsRepository {
  constructor(private readonly db: Queryable) {}

  async listForUser(userId: number): Promise<AccountRecord[]> {
    const rows = await this.db.query<AccountRow>(
      `SELECT ${COLUMNS} FROM cloudflare_accounts WHERE user_id = $1 ORDER BY id`,
      [userId],
    );
    return rows.map(toAccount);
  }

  async findOwned(userId: number, id: number): Promise<AccountRecord | undefined> {
    const [row] = await this.db.query<AccountRow>(
      `SELECT ${COLUMNS} FROM cloudflare_accounts WHERE user_id = $1 AND id = $2`,
      [userId, id],
    );
    return row && toAccount(row);
  }

  async findOwnedByName(userId: number, accountName: string): Promise<AccountRecord | undefined> {
    const [row] = await this.db.query<AccountRow>(
      `SELECT ${COLUMNS} FROM cloudflare_accounts WHERE user_id = $1 AND lower(account_name) = lower($2)`,
      [userId, accountName],
    );
    return row && toAccount(row);
  }

  async findOwnedByCloudflareId(userId: number, accountId: string): Promise<AccountRecord | undefined> {
    const [row] = await this.db.query<AccountRow>(
      `SELECT ${COLUMNS} FROM cloudflare_accounts WHERE user_id = $1 AND account_id = $2`,
      [userId, accountId],
    );
    return row && toAccount(row);
  }

  async insert(account: Omit<AccountRecord, 'id'>): Promise<AccountRecord> {
    try {
      const [row] = await this.db.query<AccountRow>(
        `INSERT INTO cloudflare_accounts (user_id, account_name, account_id, token_encrypted, token_last4)
         VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
        [account.userId, account.accountName, account.accountId, account.tokenEncrypted, account.tokenLast4],
      );
      return toAccount(row!);
    } catch (err) {
      // Two adds racing past the service's checks still meet the unique indexes.
      if (isUniqueViolation(err)) throw new AppError('CONFLICT', 'This account has already been added.');
      throw err;
    }
  }
}
