// An alert as it is told beyond the console, and the webhooks' side of telling it: the notifications'
// own types (modules/notifications builds the notice and calls `deliver`).
export type { AlertNotice, AlertWebhooks } from '../notifications';
