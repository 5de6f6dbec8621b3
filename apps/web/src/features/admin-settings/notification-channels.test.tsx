import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { NotificationChannel } from '@guardian/contract';
import { setToken } from '../../lib/auth-token';
import { fakeApi, type FakeApi } from '../../test/fake-api';
import { jsonResponse, renderApp } from '../../test/render-app';
import { systemSettings } from '../../test/system-settings';
import { sessionToken } from '../../test/token';

const channel = (overrides: Partial<NotificationChannel> = {}): NotificationChannel => ({
  id: 1,
  name: 'Ops Slack',
  type: 'slack',
  url_masked: 'https://hooks.slack.com/****ZZ9x',
  enabled: true,
  signed: false,
  from_environment: null,
  last_delivery: null,
  failing_count: 0,
  queued: 0,
  dropped: 0,
  created_at: '2026-11-29T10:00:00.000Z',
  ...overrides,
});

let api: FakeApi;

beforeEach(() => {
  setToken(sessionToken({ level: 0, email: 'admin@example.com' }));
});

async function open(channels: NotificationChannel[]) {
  let stored = channels;
  api = fakeApi({
    'GET /api/admin/settings': () => jsonResponse(200, systemSettings()),
    'GET /api/admin/notification-channels': () => jsonResponse(200, { channels: stored, limit: 20 }),
    'POST /api/admin/notification-channels': (call) => {
      const body = call.body as { name: string; type: NotificationChannel['type'] };
      const made = channel({
        id: 7,
        name: body.name,
        type: body.type,
        signed: body.type === 'webhook',
        url_masked: 'https://siem.example/****hook',
      });
      stored = [...stored, made];
      return jsonResponse(201, {
        channel: made,
        signing_secret: body.type === 'webhook' ? 'whsec_c2VjcmV0IHNpZ25pbmcga2V5IGZvciB0ZXN0cw==' : null,
      });
    },
    'DELETE /api/admin/notification-channels/1': () => {
      stored = stored.filter((entry) => entry.id !== 1);
      return new Response(null, { status: 204 });
    },
  });
  const person = userEvent.setup();
  renderApp('/admin/settings');
  const section = await screen.findByRole('region', { name: 'Notification channels' });
  return { person, section };
}

describe('System Setting: notification channels', () => {
  it('lists each channel with its masked URL, last delivery and failures, and one set by the environment', async () => {
    const { section } = await open([
      channel({
        failing_count: 3,
        queued: 2,
        dropped: 1,
        last_delivery: {
          at: '2026-11-29T11:00:00.000Z',
          ok: false,
          status: 500,
          message: 'hooks.slack.com answered 500: oops',
        },
      }),
      channel({
        id: 2,
        name: 'Webhook set by the environment',
        type: 'webhook',
        signed: true,
        from_environment: 'GUARDIAN_NOTIFICATION_WEBHOOK_URL',
      }),
    ]);
    const table = await within(section).findByRole('table', { name: 'Notification channels' });
    const [, first, second] = within(table).getAllByRole('row');
    expect(within(first!).getByText('https://hooks.slack.com/****ZZ9x')).toBeInTheDocument();
    expect(within(first!).getByText('Failed')).toBeInTheDocument();
    expect(within(first!).getByText('hooks.slack.com answered 500: oops')).toBeInTheDocument();
    expect(within(first!).getByText('3 in a row')).toBeInTheDocument();
    expect(within(first!).getByText('2 waiting · 1 dropped')).toBeInTheDocument();
    expect(
      within(second!).getByText('Set by the environment variable GUARDIAN_NOTIFICATION_WEBHOOK_URL.'),
    ).toBeInTheDocument();
    // The environment's channel is changed there: no Change or Delete for it.
    expect(within(second!).queryByRole('button', { name: 'Change' })).toBeNull();
    expect(within(second!).getByRole('button', { name: 'Send a test' })).toBeEnabled();
  });

  it('adds a webhook channel and shows its signing secret once', async () => {
    const { person, section } = await open([]);
    expect(
      await within(section).findByText('No channel yet: alerts are shown in the console only.'),
    ).toBeInTheDocument();
    await person.click(within(section).getByRole('button', { name: 'Add Channel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a notification channel' });
    // Checked before anything is sent.
    await person.click(within(dialog).getByRole('button', { name: 'Add Channel' }));
    expect(await within(dialog).findByText('Enter a name for the channel.')).toBeInTheDocument();
    expect(api.callsTo('POST /api/admin/notification-channels')).toHaveLength(0);
    await person.type(within(dialog).getByLabelText(/^Name/), 'SIEM');
    await person.type(within(dialog).getByLabelText(/^URL/), 'https://siem.example/in/hook');
    await person.click(within(dialog).getByRole('button', { name: 'Add Channel' }));
    const saved = await screen.findByRole('dialog', { name: 'Channel "SIEM" added' });
    expect(within(saved).getByLabelText('Signing secret')).toHaveTextContent(
      'whsec_c2VjcmV0IHNpZ25pbmcga2V5IGZvciB0ZXN0cw==',
    );
    expect(api.sent('POST /api/admin/notification-channels')).toEqual([
      { name: 'SIEM', type: 'webhook', webhook_url: 'https://siem.example/in/hook', enabled: true },
    ]);
    await person.click(within(saved).getByRole('button', { name: 'Done' }));
    expect(await within(section).findByText('SIEM')).toBeInTheDocument();
    expect(screen.queryByText(/whsec_/)).toBeNull();
  });

  it('sends a test: progress, then what the receiver answered, or the error in words', async () => {
    const { person, section } = await open([channel()]);
    const held = api.held('POST /api/admin/notification-channels/1/test');
    await person.click(await within(section).findByRole('button', { name: 'Send a test' }));
    expect(await within(section).findByRole('button', { name: 'Sending...' })).toBeDisabled();
    held.release(jsonResponse(200, { status: 200, answer: 'hooks.slack.com answered 200: ok' }));
    expect(
      await within(section).findByText('Test delivered to "Ops Slack". hooks.slack.com answered 200: ok'),
    ).toBeInTheDocument();

    api.answer('POST /api/admin/notification-channels/1/test', () =>
      jsonResponse(409, {
        code: 'CONFLICT',
        message: 'The test message was not delivered: hooks.slack.com answered 404: no_service',
        errors: [],
      }),
    );
    await person.click(within(section).getByRole('button', { name: 'Send a test' }));
    expect(
      await within(section).findByText(
        'The test message was not delivered: hooks.slack.com answered 404: no_service',
      ),
    ).toBeInTheDocument();
    expect(within(section).queryByText(/Test delivered/)).toBeNull();
    expect(screen.queryByRole('status', { name: /delivered/ })).toBeNull();
  });

  it('deletes a channel after asking', async () => {
    const { person, section } = await open([channel()]);
    await person.click(await within(section).findByRole('button', { name: 'Delete channel Ops Slack' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete notification channel' });
    await person.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Channel "Ops Slack" deleted.')).toBeInTheDocument();
    expect(api.callsTo('DELETE /api/admin/notification-channels/1')).toHaveLength(1);
    expect(
      await within(section).findByText('No channel yet: alerts are shown in the console only.'),
    ).toBeInTheDocument();
  });
});
