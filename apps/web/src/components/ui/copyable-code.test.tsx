import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../lib/auth-token';
import { sessionToken } from '../../test/token';
import { CopyableCode } from './copyable-code';
import { ToastProvider } from './toast';

function renderCode(props: Parameters<typeof CopyableCode>[0]) {
  render(
    <ToastProvider>
      <CopyableCode {...props} />
    </ToastProvider>,
  );
}

describe('CopyableCode', () => {
  // Toasts are for signed-in screens.
  beforeEach(() => setToken(sessionToken({ level: 1 })));

  it('shows the value under its label, copies it and says so in a toast named by the label', async () => {
    const user = userEvent.setup();
    renderCode({ label: 'Server key', value: 'gsk_abc123' });
    expect(screen.getByLabelText('Server key')).toHaveTextContent('gsk_abc123');
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe('gsk_abc123');
    expect(await screen.findByRole('status')).toHaveTextContent('Server key copied.');
  });

  it("says the caller's words, and how to copy by hand when the browser refuses", async () => {
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    renderCode({
      label: 'New API key',
      value: 'gk_1',
      words: { copied: 'API key copied.', failed: 'Could not copy: select the key and copy it.' },
    });
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not copy: select the key and copy it.');
  });
});
