import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api';
import { setToken } from '../../lib/auth-token';
import { sessionToken } from '../../test/token';
import {
  ConfirmProvider,
  useConfirm,
  useConfirmedAction,
  type ConfirmedAction,
  type ConfirmOptions,
} from './confirm-dialog';
import { ToastProvider } from './toast';

const DELETE_BAN_LIST: ConfirmOptions = {
  title: 'Delete ban list',
  message: 'Are you sure you want to delete this ban list? This action cannot be undone.',
};

function Asker({ options, onResult }: { options: ConfirmOptions; onResult: (result: unknown) => void }) {
  const confirm = useConfirm();
  return (
    <button
      type="button"
      onClick={() => confirm(options).then(onResult, (error: unknown) => onResult(error))}
    >
      Ask
    </button>
  );
}

function setup(options: ConfirmOptions) {
  const onResult = vi.fn();
  render(
    <ConfirmProvider>
      <Asker options={options} onResult={onResult} />
    </ConfirmProvider>,
  );
  return { onResult, user: userEvent.setup() };
}

describe('useConfirm', () => {
  it('shows the exact text and resolves true on confirm', async () => {
    const { onResult, user } = setup(DELETE_BAN_LIST);
    await user.click(screen.getByRole('button', { name: 'Ask' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete ban list' });
    expect(dialog).toHaveAccessibleDescription(DELETE_BAN_LIST.message as string);
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(onResult).toHaveBeenCalledWith(true));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('resolves false on Cancel and on Esc', async () => {
    const { onResult, user } = setup(DELETE_BAN_LIST);
    await user.click(screen.getByRole('button', { name: 'Ask' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(onResult).toHaveBeenLastCalledWith(false));
    await user.click(screen.getByRole('button', { name: 'Ask' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(onResult).toHaveBeenCalledTimes(2));
    expect(onResult).toHaveBeenLastCalledWith(false);
  });

  it("keeps the dialog open with the busy label while the action runs (a Delete's: Deleting...)", async () => {
    let finish = () => {};
    const action = () => new Promise<void>((resolve) => (finish = resolve));
    const { onResult, user } = setup({ ...DELETE_BAN_LIST, action });
    await user.click(screen.getByRole('button', { name: 'Ask' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.getByRole('button', { name: 'Deleting...' })).toBeDisabled();
    finish();
    await waitFor(() => expect(onResult).toHaveBeenCalledWith(true));
  });

  it('rejects with the error of a failed action', async () => {
    const failure = new Error('Failed to delete zone.');
    const { onResult, user } = setup({ ...DELETE_BAN_LIST, action: () => Promise.reject(failure) });
    await user.click(screen.getByRole('button', { name: 'Ask' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(onResult).toHaveBeenCalledWith(failure));
  });
});

function ActionAsker({ action, onResult }: { action: ConfirmedAction; onResult: (result: boolean) => void }) {
  const run = useConfirmedAction();
  return (
    <button type="button" onClick={() => void run(action).then(onResult)}>
      Ask
    </button>
  );
}

function setupAction(action: ConfirmedAction) {
  // Toasts are for signed-in screens.
  setToken(sessionToken({ level: 1 }));
  const onResult = vi.fn();
  render(
    <ToastProvider>
      <ConfirmProvider>
        <ActionAsker action={action} onResult={onResult} />
      </ConfirmProvider>
    </ToastProvider>,
  );
  return { onResult, user: userEvent.setup() };
}

const REVOKE_KEY: ConfirmedAction = {
  title: 'Revoke API Key',
  message: 'Revoke the key "ci"? Scripts using it are refused from now on.',
  confirmLabel: 'Revoke',
  action: () => Promise.resolve(),
  done: 'API key ci revoked.',
  failed: 'Failed to revoke the API key.',
};

describe('useConfirmedAction', () => {
  it('says `done` in a success toast once the confirmed action has run, and resolves true', async () => {
    const action = vi.fn(() => Promise.resolve());
    const { onResult, user } = setupAction({ ...REVOKE_KEY, action });
    await user.click(screen.getByRole('button', { name: 'Ask' }));
    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(onResult).toHaveBeenCalledWith(true));
    expect(action).toHaveBeenCalledOnce();
    expect(screen.getByRole('status')).toHaveTextContent('API key ci revoked.');
  });

  it('reads a `done` function after the action, for what the action answered', async () => {
    let ended = 0;
    const { onResult, user } = setupAction({
      ...REVOKE_KEY,
      action: async () => {
        ended = 3;
      },
      done: () => `${ended} other sessions ended.`,
    });
    await user.click(screen.getByRole('button', { name: 'Ask' }));
    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(onResult).toHaveBeenCalledWith(true));
    expect(screen.getByRole('status')).toHaveTextContent('3 other sessions ended.');
  });

  it('runs nothing and toasts nothing on Cancel, and resolves false', async () => {
    const action = vi.fn(() => Promise.resolve());
    const { onResult, user } = setupAction({ ...REVOKE_KEY, action });
    await user.click(screen.getByRole('button', { name: 'Ask' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(onResult).toHaveBeenCalledWith(false));
    expect(action).not.toHaveBeenCalled();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("says `failed` and the server's reason in an error toast when the action fails, and resolves false", async () => {
    const refused = new ApiError(409, null, 'The key is already revoked.', 'HTTP 409');
    const { onResult, user } = setupAction({ ...REVOKE_KEY, action: () => Promise.reject(refused) });
    await user.click(screen.getByRole('button', { name: 'Ask' }));
    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(onResult).toHaveBeenCalledWith(false));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Failed to revoke the API key. The key is already revoked.',
    );
  });
});
