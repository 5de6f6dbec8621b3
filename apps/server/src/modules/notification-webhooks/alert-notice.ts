import type { AlertKind, AlertSeverity, AlertSubject } from '@guardian/contract';

/*
 * The seam with the notifications' dispatch (branch h-mail builds the caller and owns these types):
 * declared here the same, so they match by structure until the two are unified.
 */

/** An alert as it is told to a person's channels. */
export interface AlertNotice {
  alertId: number;
  userId: number;
  userEmail: string;
  kind: AlertKind;
  severity: AlertSeverity;
  title: string;
  subject: AlertSubject | null;
  count: number;
  /** ISO 8601. */
  firstSeen: string;
  /** ISO 8601. */
  lastSeen: string;
  /** The console's page of it (`/dashboard/alerts`). */
  path: string;
}

/** Where alerts go by webhook: `deliver` queues them and returns at once. */
export interface AlertWebhooks {
  deliver(notice: AlertNotice): Promise<void>;
}
