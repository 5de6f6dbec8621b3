import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { BanListItemsPage, Job } from '@guardian/contract';
import { setToken } from '../../lib/auth-token';
import { banListOf } from '../../test/ban-list';
import { fakeApi } from '../../test/fake-api';
import { jobOf } from '../../test/job';
import { jsonResponse, renderApp } from '../../test/render-app';
import { sessionToken } from '../../test/token';

// "Update from Cloudflare" of a long list: the server answers 202 with its job, which the screen
// follows (GET /api/jobs/:id every second) until it ends.
const LIST_ID = '2c0fc9fa937b11eaa1b71c4d701ab86e';
const JOB_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const ITEMS_PATH = `/api/cloudflare/banlists/${LIST_ID}/items`;
const SYNC = `POST /api/cloudflare/banlists/${LIST_ID}/sync`;
const JOB = `GET /api/jobs/${JOB_ID}`;

const BAN_LIST = banListOf(1, 'blocked_ips', { list_id: LIST_ID, items: 1 });

const job = (overrides: Partial<Job> = {}): Job => jobOf({ id: JOB_ID, list_id: LIST_ID, ...overrides });

const page = (comments: string[]): BanListItemsPage => ({
  items: comments.map((comment, i) => ({
    id: i + 1,
    ip: `10.0.0.${i + 1}`,
    comment,
    created_on: '2025-03-04T05:06:07Z',
    added_via: 'cloudflare' as const,
    added_by: '',
    expires_at: null,
  })),
  totalItems: comments.length,
  totalItemsCapped: false,
});

function syncApi() {
  return fakeApi({
    'GET /api/cloudflare/banlists': () => jsonResponse(200, [BAN_LIST]),
    [`GET ${ITEMS_PATH}`]: () => jsonResponse(200, page(['Before the sync'])),
  });
}

beforeEach(() => {
  setToken(sessionToken({ level: 1 }));
});

async function openItems() {
  const user = userEvent.setup();
  renderApp(`/cloudflare/banlists/${LIST_ID}/items`);
  await screen.findByText('Before the sync');
  return user;
}

async function startLongSync(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Update from Cloudflare' }));
  const dialog = await screen.findByRole('dialog', { name: 'Update from Cloudflare' });
  await user.click(within(dialog).getByRole('button', { name: 'Sync' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
}

describe('a long Update from Cloudflare', () => {
  it('keeps Syncing... with the progress while its job runs, then re-fetches and says it synced', async () => {
    const api = syncApi();
    api.answer(SYNC, () => jsonResponse(202, job({ state: 'queued' })));
    api.answer(JOB, () => jsonResponse(200, job({ done: 2_500, total: 10_000 })));
    const user = await openItems();
    await startLongSync(user);

    expect(screen.getByRole('button', { name: 'Syncing...' })).toBeDisabled();
    const progress = await screen.findByRole('progressbar', { name: 'Sync progress' });
    await waitFor(() => expect(progress).toHaveAttribute('aria-valuenow', '25'));
    expect(screen.getByRole('region', { name: 'Sync with Cloudflare' })).toHaveTextContent(
      '2,500 of 10,000 items (25%)',
    );
    // No toast yet: the sync has not ended.
    expect(screen.queryByText('List synced with Cloudflare.')).not.toBeInTheDocument();

    api.answer(JOB, () => jsonResponse(200, job({ done: 7_500, total: 10_000 })));
    await waitFor(() => expect(progress).toHaveAttribute('aria-valuenow', '75'));
    // Two polls a second apart tell the rate and the time left.
    expect(screen.getByRole('region', { name: 'Sync with Cloudflare' })).toHaveTextContent(
      /items\/s · about \d+ s left/,
    );

    api.answer(`GET ${ITEMS_PATH}`, () => jsonResponse(200, page(['After the sync', 'Another'])));
    api.answer(JOB, () =>
      jsonResponse(
        200,
        job({ state: 'succeeded', done: 10_000, total: 10_000, result: { ...BAN_LIST, items: 2 } }),
      ),
    );
    expect(await screen.findByText('After the sync')).toBeInTheDocument();
    expect(screen.getByText('List synced with Cloudflare.')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Sync progress' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Update from Cloudflare' })).toBeEnabled();
  });

  it('says the spec’s failure with the job’s reason when it fails, and keeps the items', async () => {
    const api = syncApi();
    api.answer(SYNC, () => jsonResponse(202, job()));
    api.answer(JOB, () =>
      jsonResponse(200, job({ state: 'failed', error: 'Cloudflare is rate limiting this account.' })),
    );
    const user = await openItems();
    await startLongSync(user);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to sync items. Please try again. Cloudflare is rate limiting this account.',
    );
    expect(screen.getByText('Before the sync')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Update from Cloudflare' })).toBeEnabled();
  });

  it('finds the list’s running sync among the person’s jobs on opening, and cancels it', async () => {
    const api = syncApi();
    api.answer('GET /api/jobs', () =>
      jsonResponse(200, { jobs: [job({ done: 10, total: 100 })], unseen: 0 }),
    );
    api.answer(JOB, () => jsonResponse(200, job({ done: 40, total: 100 })));
    api.answer(`POST /api/jobs/${JOB_ID}/cancel`, () =>
      jsonResponse(200, job({ done: 40, total: 100, cancel_requested: true })),
    );
    const user = await openItems();
    expect(await screen.findByRole('button', { name: 'Syncing...' })).toBeDisabled();
    const progress = await screen.findByRole('progressbar', { name: 'Sync progress' });
    await waitFor(() => expect(progress).toHaveAttribute('aria-valuenow', '40'));

    await user.click(screen.getByRole('button', { name: 'Cancel sync' }));
    expect(api.callsTo(`POST /api/jobs/${JOB_ID}/cancel`)).toHaveLength(1);
    expect(await screen.findByRole('button', { name: 'Cancelling...' })).toBeDisabled();

    api.answer(JOB, () => jsonResponse(200, job({ state: 'cancelled', done: 40, total: 100 })));
    expect(await screen.findByText('Sync cancelled.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Update from Cloudflare' })).toBeEnabled();
  });

  it('does not take another list’s running sync for this one', async () => {
    const api = syncApi();
    api.answer('GET /api/jobs', () =>
      jsonResponse(200, {
        jobs: [
          job({ target: 'office_allowlist', list_id: 'a'.repeat(32) }),
          // Same name and account, another list (renamed since, or another account of that name).
          job({ id: '1f8fad5b-d9cb-469f-a165-70867728950f', list_id: 'b'.repeat(32) }),
        ],
        unseen: 0,
      }),
    );
    await openItems();
    await waitFor(() => expect(api.callsTo('GET /api/jobs')).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Update from Cloudflare' })).toBeEnabled();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });
});
