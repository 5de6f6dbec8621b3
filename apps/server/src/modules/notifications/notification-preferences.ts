import {
  DEFAULT_EMAILED_KINDS,
  NOTIFIABLE_ALERT_KINDS,
  notificationPreferencesUpdateRequestSchema,
  type AlertKind,
  type NotifiableAlertKind,
  type NotificationPreference,
  type NotificationPreferencesUpdate,
} from '@guardian/contract';
import type { Queryable } from '../../db';

/** Where a person's alert of one kind goes, and their address. */
export interface NotificationTarget {
  email: string;
  byEmail: boolean;
  byWebhook: boolean;
}

const defaultOf = (kind: NotifiableAlertKind): NotificationPreference => ({
  kind,
  email: DEFAULT_EMAILED_KINDS.includes(kind),
  webhook: false,
});

const isNotifiable = (kind: AlertKind): kind is NotifiableAlertKind =>
  (NOTIFIABLE_ALERT_KINDS as readonly string[]).includes(kind);

/**
 * Each person's choice per kind (migration 047): a row only for a kind they set, the contract's
 * defaults for the rest. Every read and write is by the signed-in person's own id.
 */
export class NotificationPreferences {
  constructor(private readonly db: Queryable) {}

  /** Every notifiable kind, in the contract's order, as the person set it or by default. */
  async of(userId: number): Promise<NotificationPreference[]> {
    const rows = await this.db.query<{ kind: string; email: boolean; webhook: boolean }>(
      'SELECT kind, email, webhook FROM notification_preferences WHERE user_id = $1',
      [userId],
    );
    const set = new Map(rows.map((row) => [row.kind, row]));
    return NOTIFIABLE_ALERT_KINDS.map((kind) => {
      const row = set.get(kind);
      return row ? { kind, email: row.email, webhook: row.webhook } : defaultOf(kind);
    });
  }

  /** Sets the kinds given (one statement); the others stay as they were. */
  async update(userId: number, changes: NotificationPreferencesUpdate): Promise<NotificationPreference[]> {
    const { preferences } = notificationPreferencesUpdateRequestSchema.parse(changes);
    await this.db.query(
      `INSERT INTO notification_preferences (user_id, kind, email, webhook)
       SELECT $1, kind, email, webhook
         FROM unnest($2::text[], $3::boolean[], $4::boolean[]) AS given (kind, email, webhook)
       ON CONFLICT (user_id, kind) DO UPDATE SET email = EXCLUDED.email, webhook = EXCLUDED.webhook`,
      [
        userId,
        preferences.map((entry) => entry.kind),
        preferences.map((entry) => entry.email),
        preferences.map((entry) => entry.webhook),
      ],
    );
    return this.of(userId);
  }

  /**
   * Where a new alert of this kind goes for this person (one statement), or undefined when it goes
   * nowhere beyond the console: a kind not notified, or a disabled or deleted person.
   */
  async targetOf(userId: number, kind: AlertKind): Promise<NotificationTarget | undefined> {
    if (!isNotifiable(kind)) return undefined;
    const [row] = await this.db.query<{
      email: string;
      by_email: boolean | null;
      by_webhook: boolean | null;
    }>(
      `SELECT u.email, p.email AS by_email, p.webhook AS by_webhook
         FROM users u LEFT JOIN notification_preferences p ON p.user_id = u.id AND p.kind = $2
        WHERE u.id = $1 AND NOT u.disabled`,
      [userId, kind],
    );
    if (!row) return undefined;
    const fallback = defaultOf(kind);
    return {
      email: row.email,
      byEmail: row.by_email ?? fallback.email,
      byWebhook: row.by_webhook ?? fallback.webhook,
    };
  }
}
