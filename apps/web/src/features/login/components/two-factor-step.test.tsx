import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { getToken, setToken } from '../../../lib/auth-token';
import { fakeApi, type FakeApi } from '../../../test/fake-api';
import { errorResponse, jsonResponse, renderApp } from '../../../test/render-app';
import { sessionToken } from '../../../test/token';

let api: FakeApi;
const challenge = {
  two_factor_required: true,
  challenge_token: 'challenge.of.ayse',
  expires_at: '2026-11-24T10:05:00.000Z',
};
const WRONG =
  'That code is not right. Enter the 6-digit code your authenticator app shows now, or an unused recovery code.';

beforeEach(() => {
  api = fakeApi({ 'POST /api/login': () => jsonResponse(200, challenge) });
});

async function passwordStep(path = '/login') {
  const user = userEvent.setup();
  const view = renderApp(path);
  await screen.findByRole('heading', { name: 'Sign in' });
  await user.type(screen.getByLabelText('E-mail'), 'ayse@example.com');
  await user.type(screen.getByLabelText('Password'), 'secret');
  await user.click(screen.getByRole('button', { name: 'Login' }));
  await screen.findByRole('heading', { name: 'Two-factor sign-in' });
  return { user, ...view };
}

describe('sign-in second step', () => {
  it('asks for the code after a right password, and signs in back where the person was', async () => {
    setToken(sessionToken({ level: 1, expiresInS: -60 }));
    const token = sessionToken({ level: 1 });
    api.answer('POST /api/login/two-factor', () => jsonResponse(200, { token }));
    const { user, router } = await passwordStep('/cloudflare/zones?page=2');
    expect(getToken()).toBeNull();
    const verify = screen.getByRole('button', { name: 'Verify' });
    const code = screen.getByLabelText('Authentication code');
    expect(code).toHaveFocus();
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await user.type(code, '12345');
    expect(verify).toBeDisabled();
    await user.type(code, '6');
    await user.click(verify);
    await waitFor(() => expect(router.state.location.pathname).toBe('/cloudflare/zones'));
    expect(router.state.location.search).toBe('?page=2');
    expect(getToken()).toBe(token);
    expect(api.sent('POST /api/login/two-factor')).toEqual([
      { challenge_token: challenge.challenge_token, code: '123456' },
    ]);
  });

  it("sends another person to /dashboard after the second step, not to the ended session's page", async () => {
    setToken(sessionToken({ level: 1, userId: 1, expiresInS: -60 }));
    api.answer('POST /api/login/two-factor', () =>
      jsonResponse(200, { token: sessionToken({ level: 1, userId: 2 }) }),
    );
    const { user, router } = await passwordStep('/cloudflare/zones?page=2');
    await user.type(screen.getByLabelText('Authentication code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('says clearly that a code is wrong, and lets the person type another', async () => {
    api.answer('POST /api/login/two-factor', () => errorResponse(401, 'UNAUTHORIZED', WRONG, 'code'));
    const { user, router } = await passwordStep();
    await user.type(screen.getByLabelText('Authentication code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(WRONG);
    expect(screen.getByLabelText('Authentication code')).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Verify' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(getToken()).toBeNull();
  });

  it('takes a recovery code instead, letters and all', async () => {
    api.answer('POST /api/login/two-factor', () => jsonResponse(200, { token: sessionToken({ level: 1 }) }));
    const { user, router } = await passwordStep();
    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    await user.type(screen.getByLabelText('Recovery code'), 'ab3de-fg4hj');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(api.sent('POST /api/login/two-factor')).toEqual([
      { challenge_token: challenge.challenge_token, code: 'ab3de-fg4hj' },
    ]);
  });

  it('sends the person back to the password when the challenge has expired', async () => {
    const expired = 'Your sign-in took too long. Please sign in again.';
    api.answer('POST /api/login/two-factor', () =>
      jsonResponse(401, {
        code: 'UNAUTHORIZED',
        message: expired,
        errors: [{ code: 'UNAUTHORIZED', message: expired }],
      }),
    );
    const { user } = await passwordStep();
    await user.type(screen.getByLabelText('Authentication code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(expired);
    await user.click(screen.getByRole('button', { name: 'Sign in again' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('sends a person whom an administrator requires to enrol to /two-factor/setup, then back', async () => {
    api.answer('POST /api/login', () =>
      jsonResponse(200, { token: sessionToken({ level: 1 }), two_factor_setup_required: true }),
    );
    api.answer('GET /api/me/two-factor', () =>
      jsonResponse(200, { enabled: false, enabled_at: null, recovery_codes_left: 0, required: true }),
    );
    api.answer('POST /api/me/two-factor/setup', () =>
      jsonResponse(200, {
        secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        otpauth_url: 'otpauth://totp/Guardian:ayse?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Guardian',
      }),
    );
    api.answer('POST /api/me/two-factor/enable', () =>
      jsonResponse(200, { recovery_codes: Array.from({ length: 10 }, (_, i) => `aaaa${i}-bbbbb`) }),
    );
    setToken(sessionToken({ level: 1, expiresInS: -60 }));
    const user = userEvent.setup();
    const { router } = renderApp('/cloudflare/accounts');
    await screen.findByRole('heading', { name: 'Sign in' });
    await user.type(screen.getByLabelText('E-mail'), 'ayse@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('heading', { name: 'Turn on two-factor sign-in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/two-factor/setup');
    await user.type(await screen.findByLabelText('Code from the app'), '654321');
    await user.click(screen.getByRole('button', { name: 'Turn On' }));
    expect(await screen.findByRole('list', { name: 'Recovery codes' })).toHaveTextContent('aaaa9-bbbbb');
    // Still here after the state refreshes: the codes stay until the person says they have them.
    api.answer('GET /api/me/two-factor', () =>
      jsonResponse(200, {
        enabled: true,
        enabled_at: '2026-11-24T10:00:00Z',
        recovery_codes_left: 10,
        required: true,
      }),
    );
    api.answer('GET /api/cloudflare/accounts', () => jsonResponse(200, []));
    await user.click(screen.getByRole('button', { name: 'I have saved my recovery codes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/cloudflare/accounts'));
  });
});
