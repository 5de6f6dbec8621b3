import type { Db, Queryable } from '../../db';

/** A person's two-factor state as the service needs it (the secret still encrypted). */
export interface TwoFactorRecord {
  userId: number;
  email: string;
  level: number;
  disabled: boolean;
  passwordHash: string;
  /** Encrypted with the TokenCipher; set while enrolling and while on. */
  encryptedSecret: string | null;
  enabledAt: Date | null;
  lastStep: number | null;
}

interface Row {
  id: number;
  email: string;
  level: number;
  disabled: boolean;
  password_hash: string;
  totp_secret: string | null;
  totp_enabled_at: Date | null;
  totp_last_step: number | string | null;
}

const REQUIRED_KEY = 'two_factor_required';

/** The only SQL on two-factor: the users' TOTP columns, recovery codes and the required setting. */
export class TwoFactorRepository {
  constructor(private readonly db: Db) {}

  async find(userId: number): Promise<TwoFactorRecord | undefined> {
    const [row] = await this.db.query<Row>(
      `SELECT id, email, level, disabled, password_hash, totp_secret, totp_enabled_at, totp_last_step
         FROM users WHERE id = $1`,
      [userId],
    );
    return (
      row && {
        userId: row.id,
        email: row.email,
        level: row.level,
        disabled: row.disabled,
        passwordHash: row.password_hash,
        encryptedSecret: row.totp_secret,
        enabledAt: row.totp_enabled_at,
        lastStep: row.totp_last_step === null ? null : Number(row.totp_last_step),
      }
    );
  }

  async unusedRecoveryCodes(userId: number): Promise<number> {
    const [row] = await this.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL',
      [userId],
    );
    return row?.count ?? 0;
  }

  /** Whether the person has two-factor on (the gate's question). */
  async isEnabled(userId: number): Promise<boolean> {
    const [row] = await this.db.query<{ on: boolean }>(
      'SELECT totp_enabled_at IS NOT NULL AS on FROM users WHERE id = $1',
      [userId],
    );
    return row?.on ?? false;
  }

  /** Keeps a new secret to confirm; false when two-factor is already on (a secret in use is never replaced). */
  async storePendingSecret(userId: number, encryptedSecret: string): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE users SET totp_secret = $2, totp_last_step = NULL
        WHERE id = $1 AND totp_enabled_at IS NULL RETURNING id`,
      [userId, encryptedSecret],
    );
    return rows.length > 0;
  }

  /**
   * Turns two-factor on with the secret the person confirmed (unchanged since they read it: a second
   * setup in another tab replaces it), marks the confirming step used, and stores the recovery codes.
   */
  async enable(
    userId: number,
    encryptedSecret: string,
    step: number,
    codeHashes: Buffer[],
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.query(
        `UPDATE users SET totp_enabled_at = now(), totp_last_step = $3
          WHERE id = $1 AND totp_enabled_at IS NULL AND totp_secret = $2 RETURNING id`,
        [userId, encryptedSecret, step],
      );
      if (rows.length === 0) return false;
      await this.replaceCodes(tx, userId, codeHashes);
      return true;
    });
  }

  /**
   * Records `step` as the last one used, unless that step or a later one already was: a code is
   * accepted once, even by two requests at the same moment (one UPDATE decides).
   */
  async claimStep(userId: number, step: number): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE users SET totp_last_step = $2
        WHERE id = $1 AND totp_enabled_at IS NOT NULL AND (totp_last_step IS NULL OR totp_last_step < $2)
        RETURNING id`,
      [userId, step],
    );
    return rows.length > 0;
  }

  /** Uses up a recovery code: true once per code, whoever asks at the same time. */
  async claimRecoveryCode(userId: number, codeHash: Buffer): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE recovery_codes SET used_at = now()
        WHERE id = (SELECT id FROM recovery_codes
                     WHERE user_id = $1 AND code_sha256 = $2 AND used_at IS NULL LIMIT 1)
          AND used_at IS NULL
        RETURNING id`,
      [userId, codeHash],
    );
    return rows.length > 0;
  }

  async replaceRecoveryCodes(userId: number, codeHashes: Buffer[]): Promise<void> {
    await this.db.transaction((tx) => this.replaceCodes(tx, userId, codeHashes));
  }

  private async replaceCodes(tx: Queryable, userId: number, codeHashes: Buffer[]): Promise<void> {
    await tx.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
    // As hex text: both database clients pass a text[] alike.
    await tx.query(
      `INSERT INTO recovery_codes (user_id, code_sha256) SELECT $1, decode(unnest($2::text[]), 'hex')`,
      [userId, codeHashes.map((hash) => hash.toString('hex'))],
    );
  }

  /**
   * Turns two-factor off: secret, steps and recovery codes gone. With `endSessions` (an administrator's
   * reset) the person's sessions end too, in the same statement, when two-factor was on. False when no
   * such user exists.
   */
  async turnOff(userId: number, endSessions: boolean): Promise<boolean> {
    const rows = await this.db.query(
      `WITH target AS (
         SELECT id, totp_enabled_at IS NOT NULL AS was_on FROM users WHERE id = $1 FOR UPDATE
       ), cleared AS (
         UPDATE users SET totp_secret = NULL, totp_enabled_at = NULL, totp_last_step = NULL
          WHERE id IN (SELECT id FROM target) RETURNING id
       ), codes AS (
         DELETE FROM recovery_codes WHERE user_id IN (SELECT id FROM target)
       ), ended AS (
         DELETE FROM sessions WHERE $2 AND user_id IN (SELECT id FROM target WHERE was_on)
       )
       SELECT id FROM cleared`,
      [userId, endSessions],
    );
    return rows.length > 0;
  }

  /** `turnOff(id, true)` for the user with this e-mail (the users CLI's reset): their id, undefined when none has it. */
  async resetByEmail(email: string): Promise<number | undefined> {
    const [row] = await this.db.query<{ id: number }>('SELECT id FROM users WHERE lower(email) = lower($1)', [
      email.trim(),
    ]);
    return row !== undefined && (await this.turnOff(row.id, true)) ? Number(row.id) : undefined;
  }

  async isRequired(): Promise<boolean> {
    const [row] = await this.db.query<{ value: unknown }>('SELECT value FROM settings WHERE key = $1', [
      REQUIRED_KEY,
    ]);
    return row?.value === true;
  }

  async setRequired(required: boolean): Promise<void> {
    await this.db.query(
      // A new version: every process's System Setting sees the change (modules/system-settings).
      `INSERT INTO settings (key, value, updated_at) VALUES ($1, $2::jsonb, now())
       ON CONFLICT (key) DO UPDATE
         SET value = EXCLUDED.value, updated_at = now(), version = nextval('settings_version_seq')`,
      [REQUIRED_KEY, JSON.stringify(required)],
    );
  }
}
