import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SystemSettings } from '@guardian/contract';
import { setToken } from '../../lib/auth-token';
import { fakeApi, type FakeApi } from '../../test/fake-api';
import { jsonResponse, renderApp } from '../../test/render-app';
import { systemSettings } from '../../test/system-settings';
import { sessionToken } from '../../test/token';

const ADMIN = 'admin@example.com';

let api: FakeApi;

beforeEach(() => {
  setToken(sessionToken({ level: 0, email: ADMIN }));
});

async function open(current: SystemSettings) {
  let stored = current;
  api = fakeApi({
    'GET /api/admin/settings': () => jsonResponse(200, stored),
    'PUT /api/admin/settings': (call) => {
      const body = call.body as Record<string, unknown>;
      const { smtp_password: password, ...rest } = body;
      stored = {
        ...stored,
        values: {
          ...stored.values,
          ...rest,
          smtp_password_set: password === undefined ? stored.values.smtp_password_set : password !== null,
        } as SystemSettings['values'],
      };
      return jsonResponse(200, stored);
    },
    'GET /api/admin/notification-channels': () => jsonResponse(200, { channels: [], limit: 20 }),
  });
  const person = userEvent.setup();
  renderApp('/admin/settings');
  await screen.findByRole('heading', { level: 1, name: 'System Setting' });
  await screen.findByRole('region', { name: 'Outgoing e-mail' });
  return person;
}

describe('System Setting', () => {
  it('saves only what changed, with the SMTP password typed, and never shows a stored one', async () => {
    const person = await open(systemSettings({ smtp_password_set: true, smtp_user: 'mailer' }));
    expect(screen.getByLabelText('SMTP password')).toHaveValue('');
    expect(screen.getByText('A password is stored: type a new one to replace it.')).toBeInTheDocument();
    await person.type(screen.getByLabelText('SMTP host'), 'smtp.example.com');
    await person.selectOptions(screen.getByLabelText('TLS'), 'tls');
    await person.clear(screen.getByLabelText('SMTP port'));
    await person.type(screen.getByLabelText('SMTP port'), '465');
    await person.type(screen.getByLabelText('Sender'), 'guardian@example.com');
    await person.type(screen.getByLabelText('SMTP password'), 'new secret');
    await person.clear(screen.getByLabelText('Session lifetime'));
    await person.type(screen.getByLabelText('Session lifetime'), '60');
    await person.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('System settings saved.')).toBeInTheDocument();
    expect(api.callsTo('PUT /api/admin/settings')[0]!.body).toEqual({
      smtp_host: 'smtp.example.com',
      smtp_tls: 'tls',
      smtp_port: 465,
      smtp_sender: 'guardian@example.com',
      smtp_password: 'new secret',
      session_lifetime_minutes: 60,
    });
  });

  it('shows the range of each number and a setting the environment sets, which it does not send', async () => {
    const person = await open(
      systemSettings(
        { session_lifetime_minutes: 30 },
        { session_lifetime_minutes: 'GUARDIAN_TOKEN_TTL_SECONDS' },
      ),
    );
    const lifetime = screen.getByLabelText('Session lifetime');
    expect(lifetime).toBeDisabled();
    expect(lifetime).toHaveValue(30);
    expect(
      screen.getByText('Set by the environment variable GUARDIAN_TOKEN_TTL_SECONDS.'),
    ).toBeInTheDocument();
    expect(screen.getByText('1 to 36500 days.')).toBeInTheDocument();
    await person.click(screen.getByLabelText('Require two-factor sign-in'));
    await person.click(screen.getByRole('button', { name: 'Save Settings' }));
    await screen.findByText('System settings saved.');
    expect(api.callsTo('PUT /api/admin/settings')[0]!.body).toEqual({ require_two_factor: true });
  });

  it('puts a refused value under its field', async () => {
    const person = await open(systemSettings());
    api.answer('PUT /api/admin/settings', () =>
      jsonResponse(400, {
        code: 'BAD_REQUEST',
        message: 'Keep the audit trail must be a whole number from 1 to 36500 days.',
        errors: [
          {
            message: 'Keep the audit trail must be a whole number from 1 to 36500 days.',
            field: 'audit_retention_days',
          },
        ],
      }),
    );
    await person.clear(screen.getByLabelText('Keep the audit trail'));
    await person.type(screen.getByLabelText('Keep the audit trail'), '0');
    await person.click(screen.getByRole('button', { name: 'Save Settings' }));
    const field = screen.getByLabelText('Keep the audit trail');
    expect(
      await screen.findAllByText('Keep the audit trail must be a whole number from 1 to 36500 days.'),
    ).not.toHaveLength(0);
    expect(field).toHaveAttribute('aria-invalid', 'true');
  });

  it('sends a test e-mail and says what the server answered, or why it was not sent', async () => {
    const person = await open(
      systemSettings({ smtp_host: 'smtp.example.com', smtp_sender: 'guardian@example.com' }),
    );
    api.answer('POST /api/admin/settings/test-email', (call) =>
      (call.body as { to?: string }).to === 'down@example.com'
        ? jsonResponse(502, {
            code: 'UPSTREAM',
            message:
              'The e-mail was not sent: the SMTP server smtp.example.com:587 could not be reached (connect ECONNREFUSED).',
            errors: [],
          })
        : jsonResponse(200, { sent_to: ADMIN, server_response: '250 OK: queued' }),
    );
    const section = screen.getByRole('region', { name: 'Send a test e-mail' });
    await person.click(within(section).getByRole('button', { name: 'Send a test e-mail' }));
    expect(
      await within(section).findByText(`Sent to ${ADMIN}. The server answered: 250 OK: queued`),
    ).toBeInTheDocument();
    expect(api.callsTo('POST /api/admin/settings/test-email')[0]!.body).toEqual({});
    await person.type(within(section).getByLabelText('Recipient'), 'down@example.com');
    await person.click(within(section).getByRole('button', { name: 'Send a test e-mail' }));
    expect(await within(section).findByText(/could not be reached/)).toBeInTheDocument();
  });

  it('keeps Send a test e-mail off until a host and a sender are saved', async () => {
    await open(systemSettings());
    const section = screen.getByRole('region', { name: 'Send a test e-mail' });
    expect(within(section).getByRole('button', { name: 'Send a test e-mail' })).toBeDisabled();
    expect(within(section).getByText('Set the SMTP host and the sender first.')).toBeInTheDocument();
  });
});
