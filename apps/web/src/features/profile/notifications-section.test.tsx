import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_EMAILED_KINDS,
  NOTIFIABLE_ALERT_KINDS,
  type NotificationPreferences,
  type NotificationPreferencesUpdate,
} from '@guardian/contract';
import { setToken } from '../../lib/auth-token';
import type { FakeApi } from '../../test/fake-api';
import { errorResponse, jsonResponse, renderApp } from '../../test/render-app';
import { fakeProfileApi } from '../../test/profile';
import { sessionToken } from '../../test/token';

let api: FakeApi;

const defaults = (emailSetUp = true): NotificationPreferences => ({
  preferences: NOTIFIABLE_ALERT_KINDS.map((kind) => ({
    kind,
    email: DEFAULT_EMAILED_KINDS.includes(kind),
    webhook: false,
  })),
  email_set_up: emailSetUp,
  email_window_minutes: 15,
});

function serve(current: NotificationPreferences) {
  let stored = current;
  api = fakeProfileApi({
    'GET /api/me/notifications': () => jsonResponse(200, stored),
    'PUT /api/me/notifications': (call) => {
      const { preferences } = call.body as NotificationPreferencesUpdate;
      stored = {
        ...stored,
        preferences: stored.preferences.map(
          (entry) => preferences.find((given) => given.kind === entry.kind) ?? entry,
        ),
      };
      return jsonResponse(200, stored);
    },
  });
}

async function openSection() {
  const person = userEvent.setup();
  renderApp('/profile');
  const section = await screen.findByRole('region', { name: 'Notifications' });
  await within(section).findByRole('table');
  return { person, section };
}

beforeEach(() => setToken(sessionToken({ level: 1, email: 'ayse@example.com' })));

describe('Profile: notifications', () => {
  it('shows each kind by channel, the console always on, and saves the changes with the keyboard', async () => {
    serve(defaults());
    const { person, section } = await openSection();
    const rows = within(section).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(NOTIFIABLE_ALERT_KINDS.length);
    expect(within(section).getByLabelText('Cloudflare token not valid: console (always)')).toBeDisabled();
    expect(within(section).getByLabelText('Cloudflare token not valid: e-mail')).toBeChecked();
    expect(within(section).getByLabelText("A server's ban was refused: e-mail")).not.toBeChecked();
    expect(within(section).queryByText(/E-mail is not set up/)).not.toBeInTheDocument();

    await person.click(within(section).getByLabelText('Cloudflare token not valid: e-mail'));
    // The keyboard: Space on a focused checkbox flips it.
    within(section).getByLabelText('New API key: webhook').focus();
    await person.keyboard(' ');
    await person.click(within(section).getByRole('button', { name: 'Save Notifications' }));
    expect(await screen.findByText('Notification settings saved.')).toBeInTheDocument();
    const [sent] = api.callsTo('PUT /api/me/notifications');
    const body = sent!.body as NotificationPreferencesUpdate;
    expect(body.preferences).toHaveLength(NOTIFIABLE_ALERT_KINDS.length);
    expect(body.preferences.find((entry) => entry.kind === 'token-invalid')).toEqual({
      kind: 'token-invalid',
      email: false,
      webhook: false,
    });
    expect(body.preferences.find((entry) => entry.kind === 'api-key-created')).toEqual({
      kind: 'api-key-created',
      email: true,
      webhook: true,
    });
    expect(within(section).getByLabelText('Cloudflare token not valid: e-mail')).not.toBeChecked();
  });

  it('says when e-mail is not set up by the administrator', async () => {
    serve(defaults(false));
    const { section } = await openSection();
    expect(
      within(section).getByText(
        'E-mail is not set up by your administrator: alerts are in the console only until it is.',
      ),
    ).toBeInTheDocument();
  });

  it('shows a refused save and no success toast', async () => {
    serve(defaults());
    api.answer('PUT /api/me/notifications', () =>
      errorResponse(400, 'BAD_REQUEST', 'Each kind may be given once.'),
    );
    const { person, section } = await openSection();
    await person.click(within(section).getByLabelText('A job failed: webhook'));
    await person.click(within(section).getByRole('button', { name: 'Save Notifications' }));
    expect(await within(section).findByText(/Each kind may be given once/)).toBeInTheDocument();
    expect(screen.queryByText('Notification settings saved.')).not.toBeInTheDocument();
  });
});
