import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TwoFactorStatus } from '@guardian/contract';
import { setToken } from '../../lib/auth-token';
import type { FakeApi } from '../../test/fake-api';
import { fakeProfileApi } from '../../test/profile';
import { errorResponse, jsonResponse, renderApp } from '../../test/render-app';
import { sessionToken } from '../../test/token';

let api: FakeApi;
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const off: TwoFactorStatus = { enabled: false, enabled_at: null, recovery_codes_left: 0, required: false };
const on: TwoFactorStatus = {
  enabled: true,
  enabled_at: '2026-11-20T10:00:00.000Z',
  recovery_codes_left: 7,
  required: false,
};
const codes = Array.from({ length: 10 }, (_, i) => `c0de${i}-abcde`);

function answerStatus(status: TwoFactorStatus) {
  api.answer('GET /api/me/two-factor', () => jsonResponse(200, status));
}

beforeEach(() => {
  setToken(sessionToken({ level: 1, email: 'ayse@example.com' }));
  api = fakeProfileApi();
});

async function openSection() {
  const user = userEvent.setup();
  renderApp('/profile');
  const section = await screen.findByRole('region', { name: /Two-factor sign-in/ });
  return { user, section };
}

describe('Profile: two-factor sign-in', () => {
  it('turns on: the QR code and the secret, a code, then the ten recovery codes once', async () => {
    answerStatus(off);
    api.answer('POST /api/me/two-factor/setup', () =>
      jsonResponse(200, {
        secret: SECRET,
        otpauth_url: `otpauth://totp/Guardian:ayse%40example.com?secret=${SECRET}&issuer=Guardian`,
      }),
    );
    const { user, section } = await openSection();
    expect(await within(section).findByText('Off')).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Turn On' }));
    const dialog = await screen.findByRole('dialog', { name: 'Turn On Two-Factor Sign-In' });
    expect(await within(dialog).findByTitle('QR code for your authenticator app')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Secret')).toHaveTextContent(
      'JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP',
    );

    const WRONG = 'That code is not right.';
    api.answer('POST /api/me/two-factor/enable', () => errorResponse(400, 'BAD_REQUEST', WRONG, 'code'));
    await user.type(within(dialog).getByLabelText('Code from the app'), '12345');
    await user.click(within(dialog).getByRole('button', { name: 'Turn On' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Enter the 6-digit code your app shows.');
    await user.type(within(dialog).getByLabelText('Code from the app'), '6');
    await user.click(within(dialog).getByRole('button', { name: 'Turn On' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(WRONG);

    api.answer('POST /api/me/two-factor/enable', () => jsonResponse(200, { recovery_codes: codes }));
    answerStatus({ ...on, recovery_codes_left: 10 });
    await user.click(within(dialog).getByRole('button', { name: 'Turn On' }));
    const list = await within(dialog).findByRole('list', { name: 'Recovery codes' });
    expect(within(dialog).getByText(/Two-factor sign-in is on\./)).toHaveFocus();
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(codes);
    expect(api.sent('POST /api/me/two-factor/enable')).toEqual([{ code: '123456' }, { code: '123456' }]);
    expect(within(dialog).getByRole('button', { name: 'Download' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'I have saved my recovery codes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await within(section).findByText(/10 of 10 recovery codes left/)).toBeInTheDocument();
    // A whole flow, after loading the profile page with its four sections: more than 5 s under load.
  });

  it('turns off with the password; a wrong one says so and keeps it on', async () => {
    answerStatus(on);
    const { user, section } = await openSection();
    await user.click(await within(section).findByRole('button', { name: 'Turn Off' }));
    const dialog = await screen.findByRole('dialog', { name: 'Turn Off Two-Factor Sign-In' });
    api.answer('POST /api/me/two-factor/disable', () =>
      errorResponse(400, 'BAD_REQUEST', 'The password is not right.'),
    );
    await user.type(within(dialog).getByLabelText('Password'), 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Turn Off' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The password is not right.');

    api.answer('POST /api/me/two-factor/disable', () => new Response(null, { status: 204 }));
    answerStatus(off);
    await user.clear(within(dialog).getByLabelText('Password'));
    await user.type(within(dialog).getByLabelText('Password'), 'right one');
    await user.click(within(dialog).getByRole('button', { name: 'Turn Off' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await within(section).findByText('Off')).toBeInTheDocument();
    expect(api.sent('POST /api/me/two-factor/disable')).toEqual([
      { password: 'wrong' },
      { password: 'right one' },
    ]);
  });

  it('makes new recovery codes, confirmed with a code, and shows them once', async () => {
    answerStatus(on);
    api.answer('POST /api/me/two-factor/recovery-codes', () => jsonResponse(200, { recovery_codes: codes }));
    const { user, section } = await openSection();
    await user.click(await within(section).findByRole('button', { name: 'New Recovery Codes' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Recovery Codes' });
    await user.click(
      within(dialog).getByRole('radio', { name: 'With a code (from the app, or a recovery code)' }),
    );
    await user.type(within(dialog).getByLabelText('Code'), '246810');
    await user.click(within(dialog).getByRole('button', { name: 'Create New Codes' }));
    const shown = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(shown).toHaveTextContent('c0de0-abcde');
    expect(api.sent('POST /api/me/two-factor/recovery-codes')).toEqual([{ code: '246810' }]);
  });

  it('hides Turn Off while an administrator requires two-factor', async () => {
    answerStatus({ ...on, required: true });
    const { section } = await openSection();
    expect(await within(section).findByText(/required by your administrator/)).toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: 'Turn Off' })).not.toBeInTheDocument();
  });
});
