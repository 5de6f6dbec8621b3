import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TwoFactorStatus } from '@guardian/contract';
import { getToken, setToken } from '../../lib/auth-token';
import { fakeApi, type FakeApi } from '../../test/fake-api';
import { jsonResponse, renderApp } from '../../test/render-app';
import { sessionToken } from '../../test/token';

let api: FakeApi;
const status = (over: Partial<TwoFactorStatus>): TwoFactorStatus => ({
  enabled: false,
  enabled_at: null,
  recovery_codes_left: 0,
  required: true,
  ...over,
});

beforeEach(() => {
  setToken(sessionToken({ level: 1 }));
  api = fakeApi({
    'POST /api/me/two-factor/setup': () =>
      jsonResponse(200, {
        secret: 'JBSWY3DPEHPK3PXP',
        otpauth_url: 'otpauth://totp/Guardian:a?secret=JBSWY3DPEHPK3PXP',
      }),
  });
});

describe('/two-factor/setup', () => {
  it('lets a person go on when two-factor is no longer required, or already on', async () => {
    for (const state of [status({ required: false }), status({ enabled: true })]) {
      api.answer('GET /api/me/two-factor', () => jsonResponse(200, state));
      const { router, unmount } = renderApp('/two-factor/setup');
      await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
      unmount();
    }
    expect(api.callsTo('POST /api/me/two-factor/setup')).toHaveLength(0);
  });

  it('offers a way out: signing out', async () => {
    api.answer('GET /api/me/two-factor', () => jsonResponse(200, status({})));
    api.answer('POST /api/auth/logout', () => new Response(null, { status: 204 }));
    const user = userEvent.setup();
    const { router } = renderApp('/two-factor/setup');
    expect(await screen.findByRole('heading', { name: 'Turn on two-factor sign-in' })).toBeInTheDocument();
    expect(
      await screen.findByRole('img', { name: 'QR code for your authenticator app' }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(getToken()).toBeNull();
  });
});
