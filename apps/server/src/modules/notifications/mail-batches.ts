import type { AlertKind, AlertSeverity } from '@guardian/contract';
import type { Db } from '../../db';

/** A notice held for its person's e-mail of its kind. */
export interface HeldNotice {
  userId: number;
  kind: AlertKind;
  alertId: number;
  severity: AlertSeverity;
  title: string;
  raisedAt: Date;
}

/** A batch one process took to send: the person's address, and how many tries it had before. */
export interface ClaimedBatch {
  userId: number;
  kind: AlertKind;
  email: string;
  disabled: boolean;
  attempts: number;
}

/** What a batch holds: its first notices (oldest first), how many in all, and the newest one's id. */
export interface BatchContent {
  listed: { alertId: number; title: string; severity: AlertSeverity; raisedAt: Date }[];
  total: number;
  lastId: number;
}

/**
 * The e-mail batching's SQL (migration 047). The times are the dispatch's clock, passed in, so a test
 * moves them without sleeping. A batch row is taken by one process at a time (`claimed_until`,
 * set by an UPDATE over rows locked with SKIP LOCKED), so two processes never send the same e-mail;
 * a process that died holding one gives it up when the claim runs out.
 */
export class MailBatches {
  constructor(private readonly db: Db) {}

  /**
   * Holds a notice (one statement): its batch falls due at once when the person's last e-mail of the
   * kind is a window ago or more, else when that window ends; a batch already due or waiting to retry
   * keeps its time.
   */
  async hold(notice: HeldNotice, windowMs: number): Promise<void> {
    await this.db.query(
      `WITH held AS (
         INSERT INTO notification_mail_held (user_id, kind, alert_id, severity, title, raised_at)
         VALUES ($1, $2, $3, $4, $5, $6))
       INSERT INTO notification_mail_batches AS b (user_id, kind, due_at) VALUES ($1, $2, $6)
       ON CONFLICT (user_id, kind) DO UPDATE SET due_at = COALESCE(b.due_at,
         GREATEST($6::timestamptz, b.last_sent_at + $7 * interval '1 millisecond'))`,
      [
        notice.userId,
        notice.kind,
        notice.alertId,
        notice.severity,
        notice.title.slice(0, 500),
        notice.raisedAt,
        windowMs,
      ],
    );
  }

  /** Takes up to `limit` batches due at `now` for `leaseMs`, oldest due first. */
  async claimDue(now: Date, leaseMs: number, limit: number): Promise<ClaimedBatch[]> {
    const rows = await this.db.query<{
      user_id: number;
      kind: AlertKind;
      email: string;
      disabled: boolean;
      attempts: number;
    }>(
      `WITH due AS (
         SELECT user_id, kind FROM notification_mail_batches
          WHERE due_at <= $1 AND (claimed_until IS NULL OR claimed_until <= $1)
          ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED),
       claimed AS (
         UPDATE notification_mail_batches b SET claimed_until = $1::timestamptz + $2 * interval '1 millisecond'
           FROM due WHERE b.user_id = due.user_id AND b.kind = due.kind
         RETURNING b.user_id, b.kind, b.attempts)
       SELECT claimed.user_id, claimed.kind, claimed.attempts, u.email, u.disabled
         FROM claimed JOIN users u ON u.id = claimed.user_id`,
      [now, leaseMs, limit],
    );
    return rows.map((row) => ({
      userId: Number(row.user_id),
      kind: row.kind,
      email: row.email,
      disabled: row.disabled,
      attempts: row.attempts,
    }));
  }

  /** The batch's first `listed` notices and its size. */
  async contentOf(userId: number, kind: AlertKind, listed: number): Promise<BatchContent> {
    const [size] = await this.db.query<{ total: number; last_id: string | null }>(
      `SELECT count(*)::int AS total, max(id) AS last_id FROM notification_mail_held
        WHERE user_id = $1 AND kind = $2`,
      [userId, kind],
    );
    const rows = await this.db.query<{
      alert_id: string;
      title: string;
      severity: AlertSeverity;
      raised_at: Date;
    }>(
      `SELECT alert_id, title, severity, raised_at FROM notification_mail_held
        WHERE user_id = $1 AND kind = $2 ORDER BY id LIMIT $3`,
      [userId, kind, listed],
    );
    return {
      listed: rows.map((row) => ({
        alertId: Number(row.alert_id),
        title: row.title,
        severity: row.severity,
        raisedAt: row.raised_at,
      })),
      total: size?.total ?? 0,
      lastId: Number(size?.last_id ?? 0),
    };
  }

  /**
   * The batch went out (or was dropped) up to `lastId`: those notices go, the window starts at `now`
   * when an e-mail was sent, and notices held meanwhile fall due when it ends. One transaction.
   */
  async settle(
    userId: number,
    kind: AlertKind,
    lastId: number,
    now: Date,
    windowMs: number,
    sent: boolean,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(`DELETE FROM notification_mail_held WHERE user_id = $1 AND kind = $2 AND id <= $3`, [
        userId,
        kind,
        lastId,
      ]);
      await tx.query(
        `UPDATE notification_mail_batches b
            SET last_sent_at = CASE WHEN $5 THEN $3::timestamptz ELSE last_sent_at END,
                attempts = 0, last_error = NULL, claimed_until = NULL,
                due_at = CASE WHEN EXISTS (
                    SELECT 1 FROM notification_mail_held h WHERE h.user_id = b.user_id AND h.kind = b.kind)
                  THEN GREATEST($3::timestamptz,
                    COALESCE(CASE WHEN $5 THEN $3::timestamptz ELSE last_sent_at END, $3::timestamptz)
                      + $4 * interval '1 millisecond')
                  ELSE NULL END
          WHERE user_id = $1 AND kind = $2`,
        [userId, kind, now, windowMs, sent],
      );
    });
  }

  /** A send failed: the notices stay; the batch waits until `retryAt`, its tries and error noted. */
  async failed(
    userId: number,
    kind: AlertKind,
    attempts: number,
    retryAt: Date,
    error: string,
  ): Promise<void> {
    await this.db.query(
      `UPDATE notification_mail_batches
          SET attempts = $3, due_at = $4, last_error = $5, claimed_until = NULL
        WHERE user_id = $1 AND kind = $2`,
      [userId, kind, attempts, retryAt, error.slice(0, 500)],
    );
  }

  /** Gives a claim back unsent (the process stopping): due again as it was. */
  async release(userId: number, kind: AlertKind): Promise<void> {
    await this.db.query(
      `UPDATE notification_mail_batches SET claimed_until = NULL WHERE user_id = $1 AND kind = $2`,
      [userId, kind],
    );
  }
}
