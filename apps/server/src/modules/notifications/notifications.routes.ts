import { notificationEndpoints, type NotificationPreferences as PreferencesAnswer } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../endpoint-route';
import type { NotificationPreferences } from './notification-preferences';

export interface NotificationRoutesOptions {
  preferences: NotificationPreferences;
  /** SMTP is set up now (System Setting). */
  emailSetUp: () => boolean;
  windowMs: number;
}

/** The signed-in person's own preferences under /api/me/notifications (the change is audited). */
export const notificationsRoutes: FastifyPluginAsync<NotificationRoutesOptions> = async (
  app,
  { preferences, emailSetUp, windowMs },
) => {
  const answer = (list: PreferencesAnswer['preferences']): PreferencesAnswer => ({
    preferences: list,
    email_set_up: emailSetUp(),
    email_window_minutes: windowMs / 60_000,
  });
  route(app, notificationEndpoints.get, async (request) => answer(await preferences.of(request.user.id)));
  route(app, notificationEndpoints.update, async (request) =>
    answer(await preferences.update(request.user.id, request.body)),
  );
};
