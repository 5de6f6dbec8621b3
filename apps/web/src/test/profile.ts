import { DEFAULT_EMAILED_KINDS, NOTIFIABLE_ALERT_KINDS } from '@guardian/contract';
import { fakeApi, type Answer } from './fake-api';
import { jsonResponse } from './render-app';

/** The fake API of the profile page: no API keys, no sessions, two-factor sign-in off, the default notifications, unless `answers` say otherwise. */
export function fakeProfileApi(answers: Record<string, Answer> = {}) {
  return fakeApi({
    'GET /api/me/api-keys': () => jsonResponse(200, []),
    'GET /api/me/sessions': () => jsonResponse(200, []),
    'GET /api/me/two-factor': () =>
      jsonResponse(200, { enabled: false, enabled_at: null, recovery_codes_left: 0, required: false }),
    'GET /api/me/notifications': () =>
      jsonResponse(200, {
        preferences: NOTIFIABLE_ALERT_KINDS.map((kind) => ({
          kind,
          email: DEFAULT_EMAILED_KINDS.includes(kind),
          webhook: false,
        })),
        email_set_up: true,
        email_window_minutes: 15,
      }),
    ...answers,
  });
}
