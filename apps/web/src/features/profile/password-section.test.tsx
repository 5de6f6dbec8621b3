import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { OwnSession } from '@guardian/contract';
import { getToken, setToken } from '../../lib/auth-token';
import type { FakeApi } from '../../test/fake-api';
import { errorResponse, jsonResponse, renderApp } from '../../test/render-app';
import { fakeProfileApi } from '../../test/profile';
import { sessionToken } from '../../test/token';

let api: FakeApi;
const WRONG = 'The current password is wrong.';

const session = (id: string, current: boolean): OwnSession => ({
  id,
  created_at: '2026-11-20T10:00:00.000Z',
  expires_at: '2026-11-21T10:00:00.000Z',
  last_seen_at: null,
  user_agent: null,
  address: null,
  current,
});

beforeEach(() => {
  setToken(sessionToken({ level: 1, email: 'ayse@example.com' }));
  api = fakeProfileApi({
    'GET /api/me/sessions': () =>
      jsonResponse(200, [
        session('00000000-0000-4000-8000-000000000002', false),
        session('00000000-0000-4000-8000-000000000001', true),
      ]),
  });
});

async function openDialog() {
  const user = userEvent.setup();
  renderApp('/profile');
  await screen.findByRole('list', { name: 'Sessions' });
  const section = await screen.findByRole('region', { name: 'Password' });
  await user.click(within(section).getByRole('button', { name: 'Change Password' }));
  const dialog = await screen.findByRole('dialog', { name: 'Change Password' });
  // Whoever may have copied a key is out too: the dialog says so before the change.
  expect(dialog).toHaveTextContent('Your API keys are revoked: create new ones for your scripts.');
  return { user, dialog };
}

describe('Profile: password', () => {
  it('checks the fields by the server rules before sending anything', async () => {
    const { user, dialog } = await openDialog();
    await user.type(within(dialog).getByLabelText(/New password/), 'short');
    await user.type(within(dialog).getByLabelText(/Confirm new password/), 'other');
    await user.click(within(dialog).getByRole('button', { name: 'Change Password' }));

    expect(await within(dialog).findByText('Current password is required.')).toBeInTheDocument();
    expect(within(dialog).getByText('Password must be at least 8 characters.')).toBeInTheDocument();
    expect(within(dialog).getByText('The two new passwords differ.')).toBeInTheDocument();
    expect(api.callsTo('POST /api/me/password')).toHaveLength(0);
  });

  it('says the current password is wrong, under its field, and keeps the person signed in', async () => {
    const before = getToken();
    api.answer('POST /api/me/password', () => errorResponse(400, 'BAD_REQUEST', WRONG, 'current_password'));
    const { user, dialog } = await openDialog();
    await user.type(within(dialog).getByLabelText(/Current password/), 'not-my-password');
    await user.type(within(dialog).getByLabelText(/New password/), 'a-new-password');
    await user.type(within(dialog).getByLabelText(/Confirm new password/), 'a-new-password');
    await user.click(within(dialog).getByRole('button', { name: 'Change Password' }));

    const current = within(dialog).getByLabelText(/Current password/);
    await waitFor(() => expect(current).toHaveAccessibleDescription(WRONG));
    expect(current).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getAllByText(WRONG)).toHaveLength(1);
    expect(getToken()).toBe(before);
    expect(api.sent('POST /api/me/password')).toEqual([
      { current_password: 'not-my-password', new_password: 'a-new-password' },
    ]);
  });

  it('shows a refusal that names no field (too many attempts) in the dialog', async () => {
    const LIMITED = 'Too many wrong passwords. Please wait a few minutes and try again.';
    api.answer('POST /api/me/password', () => errorResponse(429, 'RATE_LIMITED', LIMITED));
    const { user, dialog } = await openDialog();
    await user.type(within(dialog).getByLabelText(/Current password/), 'old-password');
    await user.type(within(dialog).getByLabelText(/New password/), 'a-new-password');
    await user.type(within(dialog).getByLabelText(/Confirm new password/), 'a-new-password');
    await user.click(within(dialog).getByRole('button', { name: 'Change Password' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      `Failed to change the password. ${LIMITED}`,
    );
  });

  it('stores the new session the server answers, says the other sessions ended, and lists them again', async () => {
    const fresh = sessionToken({ level: 1, email: 'ayse@example.com', expiresInS: 7200 });
    api.answer('POST /api/me/password', () => jsonResponse(200, { token: fresh }));
    const { user, dialog } = await openDialog();
    const listed = api.callsTo('GET /api/me/sessions').length;
    api.answer('GET /api/me/sessions', () =>
      jsonResponse(200, [session('00000000-0000-4000-8000-000000000003', true)]),
    );

    await user.type(within(dialog).getByLabelText(/Current password/), 'old-password');
    await user.type(within(dialog).getByLabelText(/New password/), 'a-new-password');
    await user.type(within(dialog).getByLabelText(/Confirm new password/), 'a-new-password');
    await user.click(within(dialog).getByRole('button', { name: 'Change Password' }));

    expect(await screen.findByRole('status')).toHaveTextContent(
      'Password changed. Your other sessions have ended.',
    );
    expect(screen.queryByRole('dialog', { name: 'Change Password' })).not.toBeInTheDocument();
    expect(getToken()).toBe(fresh);
    await waitFor(() => expect(api.callsTo('GET /api/me/sessions').length).toBeGreaterThan(listed));
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Sessions' })).getAllByRole('listitem')).toHaveLength(1),
    );
    // The next call carries the new token.
    expect(api.calls.at(-1)?.path).toBe('/api/me/sessions');
  });
});
