import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { UpdateZoneSettingsResponse, Zone, ZoneSettingsState } from '@guardian/contract';
import { setToken } from '../../lib/auth-token';
import { fakeApi, type FakeApi, UPSTREAM_REASON, upstreamFailure } from '../../test/fake-api';
import { jsonResponse, renderApp } from '../../test/render-app';
import { sessionToken } from '../../test/token';

const ZONE: Zone = {
  id: 'z-alpha',
  domain: 'alpha.com',
  accountName: 'Guardian Demo',
  account_id: 'acc-guardian',
  status: 'active',
  name_servers: [],
};
const SETTINGS_PATH = 'GET /api/cloudflare/zones/z-alpha/settings';
const SAVE_PATH = 'PUT /api/cloudflare/zones/z-alpha/settings';

const AT_CLOUDFLARE: ZoneSettingsState = {
  alwaysUseHTTPS: false,
  botFightMode: true,
  underAttackMode: false,
  blockAITrainingBots: false,
  securityLevel: 'medium',
  unreadable: [],
};

let api: FakeApi;

beforeEach(() => {
  setToken(sessionToken({ level: 1 }));
  api = fakeApi({
    'GET /api/cloudflare/zones/page': () => jsonResponse(200, { zones: [ZONE], totalZones: 1 }),
    [SETTINGS_PATH]: () => jsonResponse(200, AT_CLOUDFLARE),
  });
});

async function openSettings() {
  const user = userEvent.setup();
  renderApp('/cloudflare/zones');
  await screen.findByText('alpha.com');
  await user.click(screen.getByRole('button', { name: 'Settings of alpha.com' }));
  const dialog = await screen.findByRole('dialog', { name: 'Zone Settings' });
  await within(dialog).findByRole('switch', { name: 'Always Use HTTPS' });
  return { user, dialog };
}

const switchState = (dialog: HTMLElement, label: string) =>
  within(dialog).getByRole('switch', { name: label }).getAttribute('aria-checked');

describe('zone settings', () => {
  it('shows what Cloudflare has, with the Active/Passive labels', async () => {
    const { dialog } = await openSettings();
    expect(switchState(dialog, 'Always Use HTTPS')).toBe('false');
    expect(switchState(dialog, 'Bot Fight Mode')).toBe('true');
    expect(switchState(dialog, 'Under Attack Mode')).toBe('false');
    expect(switchState(dialog, 'Block AI Training Bots')).toBe('false');
    expect(within(dialog).getAllByText('Active')).toHaveLength(1);
    expect(within(dialog).getAllByText('Passive')).toHaveLength(3);
  });

  it('says it is loading until Cloudflare answers', async () => {
    const held = api.held(SETTINGS_PATH);
    const user = userEvent.setup();
    renderApp('/cloudflare/zones');
    await screen.findByText('alpha.com');
    await user.click(screen.getByRole('button', { name: 'Settings of alpha.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Zone Settings' });
    expect(within(dialog).getByText('Loading zone settings...')).toBeInTheDocument();
    held.release();
    expect(await within(dialog).findByRole('switch', { name: 'Bot Fight Mode' })).toBeInTheDocument();
  });

  it('sends only the changed settings on Save, then closes with a toast', async () => {
    api.answer(SAVE_PATH, () =>
      jsonResponse(200, { applied: { alwaysUseHTTPS: true, botFightMode: false }, failed: [] }),
    );
    const { user, dialog } = await openSettings();
    await user.click(within(dialog).getByRole('switch', { name: 'Always Use HTTPS' }));
    await user.click(within(dialog).getByRole('switch', { name: 'Bot Fight Mode' }));
    // Flipped twice: unchanged, not sent.
    await user.click(within(dialog).getByRole('switch', { name: 'Under Attack Mode' }));
    await user.click(within(dialog).getByRole('switch', { name: 'Under Attack Mode' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.sent(SAVE_PATH)).toEqual([{ alwaysUseHTTPS: true, botFightMode: false }]);
    expect(await screen.findByText('Zone settings saved.')).toBeInTheDocument();
  });

  it('sends nothing when nothing changed', async () => {
    const { user, dialog } = await openSettings();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo(SAVE_PATH)).toHaveLength(0);
  });

  it('names the setting that failed, keeps its old value, and shows the others applied', async () => {
    const failure: UpdateZoneSettingsResponse = {
      applied: { alwaysUseHTTPS: true },
      failed: [
        { setting: 'underAttackMode', message: 'Under Attack Mode could not be saved: Rate limited.' },
      ],
    };
    api.answer(SAVE_PATH, () => jsonResponse(200, failure));
    const { user, dialog } = await openSettings();
    await user.click(within(dialog).getByRole('switch', { name: 'Always Use HTTPS' }));
    await user.click(within(dialog).getByRole('switch', { name: 'Under Attack Mode' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Under Attack Mode could not be saved: Rate limited.',
    );
    expect(switchState(dialog, 'Always Use HTTPS')).toBe('true');
    expect(switchState(dialog, 'Under Attack Mode')).toBe('false');
    // Saving again sends only what is still different from Cloudflare.
    await user.click(within(dialog).getByRole('switch', { name: 'Under Attack Mode' }));
    api.answer(SAVE_PATH, () => jsonResponse(200, { applied: { underAttackMode: true }, failed: [] }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.sent(SAVE_PATH)).toEqual([
      { alwaysUseHTTPS: true, underAttackMode: true },
      { underAttackMode: true },
    ]);
  });

  it('disables a setting Cloudflare would not give, and says why', async () => {
    api.answer(SETTINGS_PATH, () =>
      jsonResponse(200, {
        ...AT_CLOUDFLARE,
        botFightMode: null,
        blockAITrainingBots: null,
        unreadable: [
          { setting: 'botFightMode', message: 'Bot Fight Mode could not be read: not authorized' },
          {
            setting: 'blockAITrainingBots',
            message: 'Block AI Training Bots could not be read: not authorized',
          },
        ],
      }),
    );
    const { dialog } = await openSettings();
    expect(within(dialog).getByRole('switch', { name: 'Bot Fight Mode' })).toBeDisabled();
    expect(within(dialog).getByRole('switch', { name: 'Always Use HTTPS' })).toBeEnabled();
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Bot Fight Mode could not be read: not authorized',
    );
  });

  it('says when the settings could not be loaded, and offers Retry', async () => {
    api.answer(SETTINGS_PATH, () => upstreamFailure());
    const user = userEvent.setup();
    renderApp('/cloudflare/zones');
    await screen.findByText('alpha.com');
    await user.click(screen.getByRole('button', { name: 'Settings of alpha.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Zone Settings' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      `Failed to load zone settings. ${UPSTREAM_REASON}`,
    );
    api.answer(SETTINGS_PATH, () => jsonResponse(200, AT_CLOUDFLARE));
    await user.click(within(dialog).getByRole('button', { name: 'Retry' }));
    expect(await within(dialog).findByRole('switch', { name: 'Bot Fight Mode' })).toBeInTheDocument();
  });

  it('reads Cloudflare again on every opening', async () => {
    const { user, dialog } = await openSettings();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    api.answer(SETTINGS_PATH, () => jsonResponse(200, { ...AT_CLOUDFLARE, underAttackMode: true }));
    await user.click(screen.getByRole('button', { name: 'Settings of alpha.com' }));
    const again = await screen.findByRole('dialog', { name: 'Zone Settings' });
    await waitFor(() => expect(switchState(again, 'Under Attack Mode')).toBe('true'));
    expect(api.callsTo(SETTINGS_PATH)).toHaveLength(2);
  });
});
