import type { AlertKind, AlertSeverity, AlertSubject } from '@guardian/contract';

/** A new alert as it is told beyond the console (e-mail here, webhooks by modules/notification-webhooks). */
export interface AlertNotice {
  alertId: number;
  userId: number;
  userEmail: string;
  kind: AlertKind;
  severity: AlertSeverity;
  title: string;
  subject: AlertSubject | null;
  count: number;
  firstSeen: string; // ISO
  lastSeen: string; // ISO
  path: string; // console path to open it, e.g. '/dashboard/alerts?kind=...'
}
/** Where alerts go by webhook (modules/notification-webhooks' `WebhookChannels`): `deliver` queues them and returns at once. */
export interface AlertWebhooks {
  deliver(notice: AlertNotice): Promise<void>;
}
