// The notifications module's entry: the one file other modules and the composition root import (lint holds it).
export type { AlertNotice, AlertWebhooks } from './notice';
export {
  NotificationDispatch,
  type ChannelFailures,
  type MailChannel,
  type NotificationDispatchOptions,
} from './notification-dispatch';
export { NotificationPreferences } from './notification-preferences';
export { notificationsRoutes } from './notifications.routes';
