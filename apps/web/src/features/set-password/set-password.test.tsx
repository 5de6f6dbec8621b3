import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, type FakeApi } from '../../test/fake-api';
import { errorResponse, jsonResponse, renderApp } from '../../test/render-app';
import { linkTokenOf } from './link-token';

let api: FakeApi;
const TOKEN = 'Zm9vYmFyYmF6cXV4LXRoZS1saW5rLXRva2VuLW9mLTQzLWNoYXJz';
const EXPIRED = 'This set-password link has expired. Ask an administrator for a new one.';
const USED =
  'This set-password link has already been used. Sign in with the password you chose, or ask an administrator for a new link.';

const refusal = (status: number, message: string) =>
  errorResponse(status, status === 404 ? 'NOT_FOUND' : 'CONFLICT', message);

beforeEach(() => {
  localStorage.clear();
  api = fakeApi({
    'POST /api/password-links/check': () =>
      jsonResponse(200, { email: 'new.person@example.com', expires_at: '2026-11-23T10:00:00.000Z' }),
  });
});

async function fill(password: string, confirm = password) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(/^New password/), password);
  await user.type(screen.getByLabelText(/^Confirm new password/), confirm);
  await user.click(screen.getByRole('button', { name: 'Set Password' }));
  return user;
}

describe('Set password (a one-time link)', () => {
  it('shows whose account it is, sets the password, then sends the person to sign in', async () => {
    api.answer('POST /api/password-links/use', () => new Response(null, { status: 204 }));
    const { router } = renderApp(`/set-password#${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'Set your password' })).toBeVisible();
    expect(await screen.findByLabelText('E-mail')).toHaveValue('new.person@example.com');
    expect(api.sent('POST /api/password-links/check')).toEqual([{ token: TOKEN }]);

    const user = await fill('my-new-password');
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Your password is set. Sign in as new.person@example.com with your new password.',
    );
    expect(api.sent('POST /api/password-links/use')).toEqual([{ token: TOKEN, password: 'my-new-password' }]);
    await user.click(screen.getByRole('link', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('checks the password by the server rules, and that both are the same, before sending it', async () => {
    renderApp(`/set-password#${TOKEN}`);
    await screen.findByLabelText('E-mail');
    await fill('short', 'shorter');
    expect(await screen.findByText('Password must be at least 8 characters.')).toBeInTheDocument();
    expect(screen.getByText('The two passwords differ.')).toBeInTheDocument();
    expect(api.callsTo('POST /api/password-links/use')).toHaveLength(0);
  });

  it('says an expired link has expired, with no form', async () => {
    api.answer('POST /api/password-links/check', () => refusal(409, EXPIRED));
    renderApp(`/set-password#${TOKEN}`);
    expect(await screen.findByRole('alert')).toHaveTextContent(EXPIRED);
    expect(screen.queryByLabelText(/^New password/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/login');
    expect(api.callsTo('POST /api/password-links/check')).toHaveLength(1);
  });

  it('says a link used in the meantime has been used', async () => {
    api.answer('POST /api/password-links/use', () => refusal(409, USED));
    renderApp(`/set-password#${TOKEN}`);
    await screen.findByLabelText('E-mail');
    await fill('my-new-password');
    expect(await screen.findByRole('alert')).toHaveTextContent(USED);
    expect(screen.queryByLabelText(/^New password/)).not.toBeInTheDocument();
  });

  it('says a link without its token is incomplete, without asking the server', async () => {
    renderApp('/set-password');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This set-password link is missing its token.',
    );
    expect(api.calls).toHaveLength(0);
  });

  it('reads the token from the fragment, or from ?token= for a link written that way', () => {
    expect(linkTokenOf({ hash: `#${TOKEN}`, search: '' })).toBe(TOKEN);
    expect(linkTokenOf({ hash: '', search: `?token=${TOKEN}` })).toBe(TOKEN);
    expect(linkTokenOf({ hash: '#%E0%A4%A', search: '' })).toBe('%E0%A4%A');
    expect(linkTokenOf({ hash: '', search: '' })).toBe('');
  });
});
