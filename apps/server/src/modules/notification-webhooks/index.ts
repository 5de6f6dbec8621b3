// The notification-webhooks module's entry: the one file other modules and the composition root import (lint holds it).
export type { AlertNotice, AlertWebhooks } from './alert-notice';
export { NotificationChannelsRepository } from './notification-channels.repository';
export { notificationChannelsRoutes } from './notification-channels.routes';
export { NotificationChannelsService } from './notification-channels.service';
export { WebhookChannels, type ChannelAlerts, type WebhookChannelsOptions } from './webhook-channels';
