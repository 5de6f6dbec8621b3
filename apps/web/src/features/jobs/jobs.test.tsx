import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Job, JobsList } from '@guardian/contract';
import { setToken } from '../../lib/auth-token';
import { fakeApi } from '../../test/fake-api';
import { jobOf } from '../../test/job';
import { jsonResponse, renderApp } from '../../test/render-app';
import { sessionToken } from '../../test/token';

const ME = 'ayse@example.com';

/** A succeeded sync of list_<id>, started by ME. */
const job = (id: number, overrides: Partial<Job> = {}): Job =>
  jobOf({
    id: `00000000-0000-4000-8000-00000000000${id}`,
    started_by: ME,
    target: `list_${id}`,
    state: 'succeeded',
    done: 10_000,
    total: 10_000,
    result: { items: 10_000 },
    started_at: '2026-11-26T10:00:01.000Z',
    finished_at: '2026-11-26T10:00:09.000Z',
    ...overrides,
  });

const RUNNING = job(1, { state: 'running', done: 2_500, total: 10_000, result: null, finished_at: null });
const FAILED = job(2, {
  state: 'failed',
  done: 0,
  total: null,
  result: null,
  error: 'The Cloudflare token of this account was revoked.',
});
const SUCCEEDED = job(3);
const list = (jobs: Job[], unseen = 0): JobsList => ({ jobs, unseen });

function jobsApi(answer: JobsList) {
  return fakeApi({
    'GET /api/jobs': () => jsonResponse(200, answer),
    'POST /api/jobs/seen': () => new Response(null, { status: 204 }),
  });
}

async function openJobs(level = 1) {
  setToken(sessionToken({ level, email: ME }));
  const user = userEvent.setup();
  renderApp('/dashboard/jobs');
  const table = await screen.findByRole('table', { name: 'Operations' });
  return { user, table };
}

const rowOf = (table: HTMLElement, target: string) =>
  within(table)
    .getAllByRole('row')
    .find((row) => row.textContent?.includes(target))!;

describe('the jobs view', () => {
  it('lists the person’s operations: what, on what, how far, how they ended, and marks them seen', async () => {
    const api = jobsApi(list([RUNNING, FAILED, SUCCEEDED], 2));
    const { table } = await openJobs();
    await within(table).findByText('list_3', { exact: false });
    expect(screen.getByRole('heading', { level: 1, name: 'Operations' })).toBeInTheDocument();

    const running = rowOf(table, 'list_1');
    expect(running).toHaveTextContent('Update from Cloudflare');
    expect(running).toHaveTextContent('list_1 · Guardian Demo');
    expect(running).toHaveTextContent('2,500 of 10,000 items');
    expect(within(running).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '25');
    expect(running).toHaveTextContent('Running');

    const failed = rowOf(table, 'list_2');
    expect(failed).toHaveTextContent('Failed');
    expect(failed).toHaveTextContent('The Cloudflare token of this account was revoked.');
    expect(within(failed).queryByRole('button')).not.toBeInTheDocument();

    const succeeded = rowOf(table, 'list_3');
    expect(succeeded).toHaveTextContent('Succeeded');
    expect(succeeded).toHaveTextContent('All 10,000 items');
    expect(succeeded).toHaveTextContent('10,000 items in the list.');
    expect(succeeded).toHaveTextContent('26 Nov 2026');

    // Only everyone's list says who started each; the person's own does not need it.
    expect(within(table).queryByRole('columnheader', { name: 'Started By' })).not.toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('POST /api/jobs/seen').length).toBeGreaterThan(0));
    expect(api.callsTo('GET /api/jobs')[0]?.params.get('scope')).toBe('mine');
  });

  it('cancels a running operation the person started', async () => {
    const api = jobsApi(list([RUNNING, SUCCEEDED]));
    api.answer(`POST /api/jobs/${RUNNING.id}/cancel`, () =>
      jsonResponse(200, { ...RUNNING, cancel_requested: true }),
    );
    const { user, table } = await openJobs();
    const cancel = await within(table).findByRole('button', {
      name: 'Cancel Update from Cloudflare of list_1',
    });
    api.answer('GET /api/jobs', () =>
      jsonResponse(200, list([{ ...RUNNING, cancel_requested: true }, SUCCEEDED])),
    );
    await user.click(cancel);
    expect(api.callsTo(`POST /api/jobs/${RUNNING.id}/cancel`)).toHaveLength(1);
    expect(
      await within(table).findByRole('button', { name: /Cancel Update from Cloudflare/ }),
    ).toHaveTextContent('Cancelling...');

    api.answer('GET /api/jobs', () =>
      jsonResponse(
        200,
        list([{ ...RUNNING, state: 'cancelled', finished_at: '2026-11-26T10:01:00.000Z' }, SUCCEEDED]),
      ),
    );
    await waitFor(() => expect(rowOf(table, 'list_1')).toHaveTextContent('Cancelled after 2,500 items.'));
    expect(within(table).queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows an administrator everyone’s operations on asking, with who started each', async () => {
    const someoneElse = job(4, { started_by: 'mehmet@example.com', state: 'running', result: null, done: 1 });
    const api = jobsApi(list([SUCCEEDED]));
    api.answer('GET /api/jobs', (call) =>
      jsonResponse(
        200,
        call.params.get('scope') === 'all' ? list([someoneElse, SUCCEEDED]) : list([SUCCEEDED]),
      ),
    );
    const { user, table } = await openJobs(0);
    expect(screen.getByRole('button', { name: 'Mine' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'Everyone' }));
    const all = await screen.findByRole('table', { name: 'Operations' });
    const row = await waitFor(() => rowOf(all, 'list_4'));
    expect(row).toHaveTextContent('mehmet@example.com');
    expect(within(all).getByRole('columnheader', { name: 'Started By' })).toBeInTheDocument();
    // Only the person who started an operation cancels it.
    expect(within(row).queryByRole('button')).not.toBeInTheDocument();
    expect(api.callsTo('GET /api/jobs').some((call) => call.params.get('scope') === 'all')).toBe(true);
    expect(table).toBeDefined();
  });

  it('offers no Everyone to a person who is not an administrator', async () => {
    jobsApi(list([]));
    const { table } = await openJobs(1);
    expect(await within(table).findByText('No operations yet.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Everyone' })).not.toBeInTheDocument();
  });

  it('says so when the operations cannot be fetched, with Retry', async () => {
    setToken(sessionToken({ level: 1, email: ME }));
    fakeApi({
      'GET /api/jobs': () => jsonResponse(403, { code: 'FORBIDDEN', message: 'No.', errors: [] }),
      'POST /api/jobs/seen': () => new Response(null, { status: 204 }),
    });
    renderApp('/dashboard/jobs');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch operations.');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
