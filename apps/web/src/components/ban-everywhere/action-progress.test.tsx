import type { Job } from '@guardian/contract';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jobOf } from '../../test/job';
import { ActionProgress, type ProgressPart } from './action-progress';

const part = (account_name: string, job: Partial<Job>, lists = ['blocked_ips']): ProgressPart => ({
  account_name,
  lists: lists.map((list_name) => ({ list_id: `list-${list_name}`, list_name })),
  job: jobOf({ id: `job-${account_name}`, kind: 'ban-everywhere', account_name, ...job }),
});

const statusOf = (parts: ProgressPart[]) => {
  const { unmount } = render(<ActionProgress run={{ title: 'Ban 203.0.113.7 everywhere', parts }} />);
  const text = within(screen.getByRole('region', { name: 'Ban 203.0.113.7 everywhere' })).getByRole(
    'status',
  ).textContent;
  unmount();
  return text;
};

describe('ActionProgress', () => {
  it("counts each account's lists in words, one list as one", () => {
    render(
      <ActionProgress
        run={{
          title: 'Ban 203.0.113.7 everywhere',
          parts: [part('Guardian Demo', { state: 'running', done: 0, total: 1 })],
        }}
      />,
    );
    expect(screen.getByText('0 of 1 list')).toBeInTheDocument();
  });

  it('says which accounts did not finish, and never "the others" when there are none', () => {
    expect(statusOf([part('A', { state: 'succeeded' }), part('B', { state: 'succeeded' })])).toBe(
      'Done in every account.',
    );
    expect(statusOf([part('A', { state: 'succeeded' }), part('B', { state: 'failed' })])).toBe(
      '1 of 2 accounts failed; the others are done.',
    );
    expect(statusOf([part('A', { state: 'failed' })])).toBe('1 of 1 account failed.');
    expect(statusOf([part('A', { state: 'cancelled' }), part('B', { state: 'succeeded' })])).toBe(
      '1 of 2 accounts was cancelled; the others are done.',
    );
    expect(statusOf([part('A', { state: 'cancelled' }), part('B', { state: 'failed' })])).toBe(
      '2 of 2 accounts failed or were cancelled.',
    );
  });
});
