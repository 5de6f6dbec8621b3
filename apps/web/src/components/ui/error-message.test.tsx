import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ErrorMessage } from './error-message';

describe('ErrorMessage', () => {
  it('announces the message alone and offers Retry beside it', async () => {
    const onRetry = vi.fn();
    render(<ErrorMessage onRetry={onRetry}>Could not load accounts.</ErrorMessage>);
    // The spec's text is what the alert says; "Retry" is a button next to it, not part of the message.
    expect(screen.getByRole('alert').textContent).toBe('Could not load accounts.');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('has no Retry when there is nothing to retry', () => {
    render(<ErrorMessage>Failed to add ban list.</ErrorMessage>);
    expect(screen.getByRole('alert').textContent).toBe('Failed to add ban list.');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
