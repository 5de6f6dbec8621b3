import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  API_KEY_PREFIX,
  MAX_API_KEYS_PER_USER,
  type ApiKey,
  type ApiKeyAccess,
  type CreateApiKeyRequest,
  type CreatedApiKey,
  type CurrentUser,
} from '@guardian/contract';
import { refuseBeyondPlan } from '../plans';
import { AppError } from '../../app-error';
import type { Db, Queryable } from '../../db';

/** A key that checked out, as a request carries it. */
export interface ApiKeyIdentity {
  id: number;
  name: string;
  access: ApiKeyAccess;
  accountIds: readonly string[];
  listIds: readonly string[];
}

interface ApiKeyRow {
  id: number;
  user_id: number;
  name: string;
  secret_sha256: Buffer | Uint8Array;
  last_four: string;
  access: ApiKeyAccess;
  account_ids: string[];
  list_ids: string[];
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
}

const KEY_FORMAT = /^gk_([0-9]{1,15})_([A-Za-z0-9_-]{43})$/;
const sha256 = (text: string) => createHash('sha256').update(text).digest();

const toApiKey = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  access: row.access,
  account_ids: row.account_ids,
  list_ids: row.list_ids,
  last_four: row.last_four,
  created_at: row.created_at.toISOString(),
  expires_at: row.expires_at?.toISOString() ?? null,
  last_used_at: row.last_used_at?.toISOString() ?? null,
});

const invalidKey = () =>
  new AppError('UNAUTHORIZED', 'This API key is not valid, has expired or was revoked.');

/**
 * Revokes every key of the person, in the caller's transaction: what ends their sessions (a password
 * change or reset, disabling, a level change) ends their keys too. Answers how many were revoked.
 */
export async function revokeAllKeys(tx: Queryable, userId: number): Promise<number> {
  const rows = await tx.query(
    'UPDATE api_keys SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL RETURNING id',
    [userId],
  );
  return rows.length;
}

/**
 * API keys: created, listed and revoked by their person (and by administrators, for anyone); checked
 * on every request that sends one.
 */
export class ApiKeysService {
  constructor(
    private readonly db: Db,
    /** Told of each new key (the person's alert, modules/alerts). */
    private readonly onCreated?: (userId: number, key: ApiKey) => Promise<void>,
  ) {}

  static isApiKey(token: string): boolean {
    return token.startsWith(API_KEY_PREFIX);
  }

  async list(userId: number): Promise<ApiKey[]> {
    const rows = await this.db.query<ApiKeyRow>(
      'SELECT * FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL ORDER BY id',
      [userId],
    );
    return rows.map(toApiKey);
  }

  /** An administrator's view of a person's keys: a 404 when no user has this id. */
  async listOfUser(userId: number): Promise<ApiKey[]> {
    const [user] = await this.db.query('SELECT id FROM users WHERE id = $1', [userId]);
    if (!user) throw new AppError('NOT_FOUND', 'User not found.');
    return this.list(userId);
  }

  async create(userId: number, request: CreateApiKeyRequest): Promise<CreatedApiKey> {
    const secret = randomBytes(32).toString('base64url');
    const created = await this.db.transaction(async (tx) => {
      await refuseBeyondPlan(tx, userId, 'api_keys', 1);
      const [{ count } = { count: 0 }] = await tx.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL',
        [userId],
      );
      if (count >= MAX_API_KEYS_PER_USER) {
        throw new AppError(
          'CONFLICT',
          `You already have ${MAX_API_KEYS_PER_USER} API keys: revoke one first.`,
        );
      }
      // The id is part of the key, so it is found by its primary key, then its secret compared.
      const [row] = await tx.query<ApiKeyRow>(
        `INSERT INTO api_keys (user_id, name, secret_sha256, last_four, access, account_ids, list_ids, expires_at)
         VALUES ($1, $2, '\\x', '', $3, $4, $5, $6) RETURNING *`,
        [
          userId,
          request.name,
          request.access,
          request.account_ids ?? [],
          request.list_ids ?? [],
          request.expires_at ?? null,
        ],
      );
      const key = `${API_KEY_PREFIX}${row!.id}_${secret}`;
      const [saved] = await tx.query<ApiKeyRow>(
        'UPDATE api_keys SET secret_sha256 = $2, last_four = $3 WHERE id = $1 RETURNING *',
        [row!.id, sha256(key), key.slice(-4)],
      );
      return { ...toApiKey(saved!), key };
    });
    await this.onCreated?.(userId, created);
    return created;
  }

  async revoke(userId: number, id: number): Promise<void> {
    const rows = await this.db.query(
      'UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id',
      [id, userId],
    );
    if (rows.length === 0) throw new AppError('NOT_FOUND', 'API key not found.');
  }

  /** The person and the key of a request that sent `token` as its bearer; 401 for anything else. */
  async authenticate(token: string): Promise<{ user: CurrentUser; key: ApiKeyIdentity }> {
    const match = KEY_FORMAT.exec(token);
    if (!match) throw invalidKey();
    const [row] = await this.db.query<ApiKeyRow & { email: string; level: number }>(
      `SELECT k.*, u.email, u.level FROM api_keys k JOIN users u ON u.id = k.user_id
        WHERE k.id = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
          AND NOT u.disabled`,
      [Number(match[1])],
    );
    if (!row || !timingSafeEqual(Buffer.from(row.secret_sha256), sha256(token))) throw invalidKey();
    // Written at most once a minute per key: a busy script does not turn every request into a write.
    await this.db.query(
      `UPDATE api_keys SET last_used_at = now()
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [row.id],
    );
    return {
      user: Object.freeze({ id: row.user_id, email: row.email, level: row.level }),
      key: {
        id: row.id,
        name: row.name,
        access: row.access,
        accountIds: row.account_ids,
        listIds: row.list_ids,
      },
    };
  }
}
