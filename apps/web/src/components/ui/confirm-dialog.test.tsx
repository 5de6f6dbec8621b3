import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmProvider, useConfirm, type ConfirmOptions } from './confirm-dialog';

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

  it('keeps the dialog open with the busy label while the action runs', async () => {
    let finish = () => {};
    const action = () => new Promise<void>((resolve) => (finish = resolve));
    const { onResult, user } = setup({ ...DELETE_BAN_LIST, action, busyLabel: 'Deleting...' });
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
