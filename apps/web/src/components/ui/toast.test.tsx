import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { OUTCOME_HEADER, TOAST_DURATION_MS } from '@guardian/contract';
import { api } from '../../lib/api';
import { clearToken, setToken } from '../../lib/auth-token';
import { sessionToken } from '../../test/token';
import { ToastProvider, useToast, type ToastApi } from './toast';

function renderToaster() {
  let toast: ToastApi | undefined;
  function Grab() {
    toast = useToast();
    return null;
  }
  render(
    <ToastProvider>
      <Grab />
    </ToastProvider>,
  );
  if (!toast) throw new Error('no toast api');
  return toast;
}

describe('toast', () => {
  // Toasts are for signed-in screens.
  beforeEach(() => setToken(sessionToken({ level: 1 })));

  it("tells what the server found out after Cloudflare's answer to a write was lost", async () => {
    const found = "Cloudflare's answer was lost; Guardian checked: the record was created.";
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>().mockResolvedValue(
        new Response(JSON.stringify({ id: 'r1' }), {
          status: 201,
          headers: { 'Content-Type': 'application/json', [OUTCOME_HEADER]: found },
        }),
      ),
    );
    renderToaster();
    await act(() => api.post('/cloudflare/zones/z/dns_records', { type: 'A' }));
    expect(screen.getByRole('status')).toHaveTextContent(found);
    vi.unstubAllGlobals();
  });

  it('shows no error toast once the session is gone (the person is on their way to /login)', () => {
    clearToken();
    const toast = renderToaster();
    act(() => toast.error('Failed to sync zones.'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a success toast for exactly TOAST_DURATION_MS (3 s)', () => {
    vi.useFakeTimers();
    expect(TOAST_DURATION_MS).toBe(3000);
    const toast = renderToaster();
    act(() => toast.success('Rule order updated successfully!'));
    const shown = screen.getByRole('status');
    expect(shown).toHaveTextContent('Rule order updated successfully!');
    expect(shown).toHaveClass('bg-success');
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 1));
    expect(screen.getByText('Rule order updated successfully!')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Rule order updated successfully!')).not.toBeInTheDocument();
  });

  it('shows errors in red as alerts, inside a live region', () => {
    const toast = renderToaster();
    act(() => toast.error('Failed to delete rule.'));
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Failed to delete rule.');
    expect(alert).toHaveClass('bg-danger');
    expect(alert.parentElement).toHaveAttribute('aria-live', 'polite');
  });

  it('can be dismissed early', async () => {
    const toast = renderToaster();
    act(() => toast.success('Saved'));
    act(() => screen.getByRole('button', { name: 'Dismiss' }).click());
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
  });
});
