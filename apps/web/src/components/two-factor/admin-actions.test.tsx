import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders, createQueryClient } from '../../app/providers';
import { fakeApi, type FakeApi } from '../../test/fake-api';
import { jsonResponse } from '../../test/render-app';
import { ConfirmProvider } from '../ui/confirm-dialog';
import { RequireTwoFactorSwitch } from './require-two-factor-switch';
import { ResetTwoFactorAction } from './reset-two-factor-action';

let api: FakeApi;

beforeEach(() => {
  api = fakeApi({ 'GET /api/admin/two-factor/required': () => jsonResponse(200, { required: false }) });
});

function renderWithProviders(children: React.ReactNode) {
  render(
    <AppProviders client={createQueryClient()}>
      <ConfirmProvider>{children}</ConfirmProvider>
    </AppProviders>,
  );
  return userEvent.setup();
}

describe('RequireTwoFactorSwitch', () => {
  it('requires two-factor for everyone after a confirmation, and makes it optional again at once', async () => {
    const user = renderWithProviders(<RequireTwoFactorSwitch />);
    const toggle = await screen.findByRole('switch', { name: 'Require two-factor sign-in for everyone' });
    await waitFor(() => expect(toggle).toBeEnabled());
    expect(toggle).toHaveAttribute('aria-checked', 'false');

    api.answer('PUT /api/admin/two-factor/required', () => jsonResponse(200, { required: true }));
    await user.click(toggle);
    const dialog = await screen.findByRole('dialog', { name: 'Require Two-Factor Sign-In' });
    expect(dialog).toHaveTextContent('API keys keep working');
    await user.click(screen.getByRole('button', { name: 'Require' }));
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'true'));
    expect(await screen.findByText('Two-factor sign-in is now required.')).toBeInTheDocument();

    api.answer('DELETE /api/admin/two-factor/required', () => jsonResponse(200, { required: false }));
    await user.click(toggle);
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'false'));
    expect(api.callsTo('PUT /api/admin/two-factor/required')).toHaveLength(1);
    expect(api.callsTo('DELETE /api/admin/two-factor/required')).toHaveLength(1);
  });
});

describe('ResetTwoFactorAction', () => {
  it("asks first, then resets the person's two-factor", async () => {
    const onReset = vi.fn();
    const user = renderWithProviders(
      <ResetTwoFactorAction userId={7} email="ayse@example.com" onReset={onReset} />,
    );
    await user.click(screen.getByRole('button', { name: 'Reset two-factor sign-in for ayse@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset Two-Factor Sign-In' });
    expect(dialog).toHaveTextContent('Turn off two-factor sign-in for ayse@example.com?');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('DELETE /api/admin/users/7/two-factor')).toHaveLength(0);
    expect(onReset).not.toHaveBeenCalled();

    api.answer('DELETE /api/admin/users/7/two-factor', () => new Response(null, { status: 204 }));
    await user.click(screen.getByRole('button', { name: 'Reset two-factor sign-in for ayse@example.com' }));
    await user.click(await screen.findByRole('button', { name: 'Reset' }));
    expect(await screen.findByText('Two-factor sign-in reset for ayse@example.com.')).toBeInTheDocument();
    expect(api.callsTo('DELETE /api/admin/users/7/two-factor')).toHaveLength(1);
    expect(onReset).toHaveBeenCalledOnce();
  });
});
