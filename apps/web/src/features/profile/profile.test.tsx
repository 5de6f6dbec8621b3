import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiKey, CreatedApiKey } from '@guardian/contract';
import { setToken } from '../../lib/auth-token';
import { banListOf } from '../../test/ban-list';
import type { FakeApi } from '../../test/fake-api';
import { jsonResponse, renderApp } from '../../test/render-app';
import { fakeProfileApi } from '../../test/profile';
import { sessionToken } from '../../test/token';

let api: FakeApi;

const existing: ApiKey = {
  id: 1,
  name: 'siem',
  access: 'read',
  account_ids: [],
  list_ids: [],
  last_four: 'wxyz',
  created_at: '2026-11-01T10:00:00.000Z',
  expires_at: null,
  last_used_at: null,
};
const list = banListOf(3, 'blocked_ips', { account_id: 'acc', list_id: 'list-blocked', items: 0 });

beforeEach(() => {
  setToken(sessionToken({ level: 1 }));
  api = fakeProfileApi({
    'GET /api/me/api-keys': () => jsonResponse(200, [existing]),
    'GET /api/cloudflare/banlists': () => jsonResponse(200, [list]),
  });
});

describe('Profile: API keys', () => {
  it('lists keys by their last four characters, creates one and shows it once, and revokes', async () => {
    const user = userEvent.setup();
    renderApp('/profile');
    const keys = await screen.findByRole('list', { name: 'API keys' });
    expect(keys).toHaveTextContent('siem');
    expect(keys).toHaveTextContent('…wxyz');
    expect(keys).toHaveTextContent('Read only');

    const created: CreatedApiKey = {
      ...existing,
      id: 2,
      name: 'fail2ban',
      access: 'ban',
      list_ids: ['list-blocked'],
      last_four: 'abcd',
      key: 'gk_2_secretsecretsecretsecretsecretsecretsecabcd',
    };
    api.answer('POST /api/me/api-keys', () => jsonResponse(201, created));
    await user.click(screen.getByRole('button', { name: 'Create Key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create API Key' });
    await user.type(within(dialog).getByLabelText('Name'), 'fail2ban');
    await user.selectOptions(within(dialog).getByLabelText(/Limit to lists/), 'list-blocked');
    await user.click(within(dialog).getByRole('button', { name: 'Create Key' }));

    const shown = await screen.findByRole('dialog', { name: 'API key "fail2ban"' });
    expect(within(shown).getByLabelText('New API key')).toHaveTextContent(created.key);
    expect(api.sent('POST /api/me/api-keys')).toEqual([
      { name: 'fail2ban', access: 'ban', list_ids: ['list-blocked'], expires_at: null },
    ]);
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByText(created.key)).not.toBeInTheDocument();

    api.answer('DELETE /api/me/api-keys/1', () => new Response(null, { status: 204 }));
    await user.click(screen.getByRole('button', { name: 'Revoke API key siem' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Revoke API Key' })).getByRole('button', {
        name: 'Revoke',
      }),
    );
    await waitFor(() => expect(api.callsTo('DELETE /api/me/api-keys/1')).toHaveLength(1));
    expect(await screen.findByRole('status')).toHaveTextContent('API key siem revoked.');
    // A whole flow, after loading the profile page with its four sections: more than 5 s under load.
  });
});
