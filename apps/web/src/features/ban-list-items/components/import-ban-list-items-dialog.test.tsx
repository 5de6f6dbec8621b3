import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, expect, it, vi } from 'vitest';
import type { BanListImportPreview, BanListImportResult, Job } from '@guardian/contract';
import { AppProviders, createQueryClient } from '../../../app/providers';
import { setToken } from '../../../lib/auth-token';
import { fakeApi } from '../../../test/fake-api';
import { jobOf } from '../../../test/job';
import { errorResponse, jsonResponse } from '../../../test/render-app';
import { sessionToken } from '../../../test/token';
import { ImportBanListItemsDialog } from './import-ban-list-items-dialog';

const LIST_ID = 'f5eafb532aa8469faf23e37001ff9a23';
const IMPORT_ID = '4f1c1c8e-2f0b-4a57-9a43-0d6f7d8b2a11';
const PREVIEW = `POST /api/cloudflare/banlists/${LIST_ID}/items/import/preview`;
const APPLY = `POST /api/cloudflare/banlists/${LIST_ID}/items/import/${IMPORT_ID}`;
const JOB_ID = '0d9e6f3a-1b2c-4d5e-8f90-123456789abc';

beforeEach(() => setToken(sessionToken({ level: 1 })));

const preview = (overrides: Partial<BanListImportPreview> = {}): BanListImportPreview => ({
  id: IMPORT_ID,
  expires_at: '2030-01-01T00:30:00.000Z',
  format: 'text',
  lines: 5,
  to_add: 2,
  already_listed: 1,
  repeated: 1,
  invalid_count: 1,
  invalid: [{ line: 4, text: 'nope', reason: '"nope" is not a valid IPv4 or IPv6 address or CIDR.' }],
  capacity: { used: 10, limit: 500_000, plan: 'Enterprise' },
  refused: null,
  ...overrides,
});

const RESULT: BanListImportResult = {
  added: 2,
  already_listed: 0,
  write_calls: 1,
  list: {
    id: 1,
    account_name: 'Demo',
    account_id: 'acc',
    list_name: 'blocked',
    list_id: LIST_ID,
    kind: 'ip',
    items: 12,
    purpose: null,
    purpose_source: null,
  },
};

const job = (overrides: Partial<Job>): Job =>
  jobOf({ id: JOB_ID, kind: 'ban-list-import', target: 'blocked', done: 1, total: 4, ...overrides });

function openDialog(routes: Parameters<typeof fakeApi>[0]) {
  const api = fakeApi(routes);
  const onImported = vi.fn();
  render(
    <AppProviders client={createQueryClient()}>
      <ImportBanListItemsDialog listId={LIST_ID} kind="ip" onClose={() => {}} onImported={onImported} />
    </AppProviders>,
  );
  return {
    api,
    onImported,
    user: userEvent.setup(),
    dialog: screen.getByRole('dialog', { name: 'Import Items' }),
  };
}

it('previews pasted text, lists the invalid lines by number, and sends nothing until Import', async () => {
  const { api, user, dialog, onImported } = openDialog({
    [PREVIEW]: () => jsonResponse(200, preview()),
    [APPLY]: () => jsonResponse(200, RESULT),
  });
  const previewButton = within(dialog).getByRole('button', { name: 'Preview' });
  expect(previewButton).toBeDisabled();
  await user.type(within(dialog).getByLabelText(/^Items/), '10.0.0.1{enter}10.0.0.3{enter}nope');
  await user.click(previewButton);

  const summary = await within(dialog).findByLabelText('Import preview');
  expect(within(summary).getByText('Will be added').nextSibling).toHaveTextContent('2');
  expect(within(summary).getByText('Already in the list').nextSibling).toHaveTextContent('1');
  expect(within(summary).getByText('Repeated in the file').nextSibling).toHaveTextContent('1');
  expect(within(summary).getByText('Invalid lines').nextSibling).toHaveTextContent('1');
  const invalid = within(dialog).getByRole('table', { name: 'Invalid lines' });
  const row = within(invalid).getAllByRole('row')[1]!;
  expect(row).toHaveTextContent('4');
  expect(row).toHaveTextContent('nope');
  expect(row).toHaveTextContent('"nope" is not a valid IPv4 or IPv6 address or CIDR.');
  expect(api.callsTo(PREVIEW)[0]?.body).toEqual({ text: '10.0.0.1\n10.0.0.3\nnope', format: 'auto' });
  expect(api.callsTo(APPLY)).toHaveLength(0);

  await user.selectOptions(within(dialog).getByLabelText('Expires'), '7d');
  await user.click(within(dialog).getByRole('button', { name: 'Import 2 items' }));
  await waitFor(() => expect(onImported).toHaveBeenCalledWith(RESULT));
  expect(api.callsTo(APPLY)[0]?.body).toEqual({ expires: '7d' });
});

it('reads an uploaded file', async () => {
  const { api, user, dialog } = openDialog({
    [PREVIEW]: () => jsonResponse(200, preview({ format: 'csv' })),
  });
  const file = new File(['ip,comment\n1.2.3.4,scanner\n'], 'bans.csv', { type: 'text/csv' });
  await user.upload(within(dialog).getByLabelText(/upload a file/), file);
  await within(dialog).findByText('Read: bans.csv');
  await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
  await within(dialog).findByLabelText('Import preview');
  expect(api.callsTo(PREVIEW)[0]?.body).toEqual({ text: 'ip,comment\n1.2.3.4,scanner\n', format: 'auto' });
});

it('names one item in the singular', async () => {
  const { user, dialog } = openDialog({
    [PREVIEW]: () => jsonResponse(200, preview({ to_add: 1 })),
  });
  await user.type(within(dialog).getByLabelText(/^Items/), '10.0.0.1');
  await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
  expect(await within(dialog).findByRole('button', { name: 'Import 1 item' })).toBeEnabled();
});

it("does not offer Import when it would pass the account's quota, and says why", async () => {
  const refused =
    '"Small" has 9,995 of 10,000 list items (Free plan): 10 more would pass it (5 left). Nothing will be sent.';
  const { user, dialog } = openDialog({
    [PREVIEW]: () => jsonResponse(200, preview({ to_add: 10, refused })),
  });
  await user.type(within(dialog).getByLabelText(/^Items/), '10.0.0.1');
  await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
  expect(await within(dialog).findByText(refused)).toBeInTheDocument();
  expect(within(dialog).getByRole('button', { name: 'Import 10 items' })).toBeDisabled();
});

/**
 * An import whose apply answers 202: its job is polled as `running` (`polls` times) and then ends with
 * RESULT. Answers the dialog once Import is pressed.
 */
async function startLongImport(running: Partial<Job>, polls: number) {
  let polled = 0;
  const opened = openDialog({
    [PREVIEW]: () => jsonResponse(200, preview()),
    [APPLY]: () => jsonResponse(202, job({ state: 'queued', done: 0, total: null })),
    [`GET /api/jobs/${JOB_ID}`]: () => {
      polled += 1;
      return jsonResponse(
        200,
        polled <= polls ? job(running) : job({ state: 'succeeded', done: 4, result: RESULT }),
      );
    },
  });
  const { user, dialog } = opened;
  await user.type(within(dialog).getByLabelText(/^Items/), '10.0.0.1');
  await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
  await user.click(await within(dialog).findByRole('button', { name: 'Import 2 items' }));
  return opened;
}

it('follows a long import as a job, with its progress, until it ends', async () => {
  const { dialog, onImported } = await startLongImport({ done: 1, total: 4 }, 1);
  expect(await within(dialog).findByRole('progressbar', { name: 'Import progress' })).toBeInTheDocument();
  await waitFor(() => expect(onImported).toHaveBeenCalledWith(RESULT));
});

it('says it is sending the items while Cloudflare takes the write, which counts nothing', async () => {
  const { dialog, onImported } = await startLongImport({ done: 0, total: 40_000 }, 2);
  const progress = await within(dialog).findByRole('progressbar', { name: 'Import progress' });
  const sending = 'Sending 40,000 items to Cloudflare...';
  await waitFor(() => expect(progress).toHaveTextContent(sending));
  expect(progress).toHaveAttribute('aria-valuetext', sending);
  await waitFor(() => expect(onImported).toHaveBeenCalledWith(RESULT));
});

it('counts the items recorded with their rate and the time left, as other jobs do (issue 35)', async () => {
  const { api, dialog, onImported } = await startLongImport({ done: 5_000, total: 40_000 }, Infinity);
  const progress = await within(dialog).findByRole('progressbar', { name: 'Import progress' });
  await waitFor(() => expect(progress).toHaveTextContent('5,000 of 40,000 items (12%)'));
  api.answer(`GET /api/jobs/${JOB_ID}`, () => jsonResponse(200, job({ done: 20_000, total: 40_000 })));
  // Two polls a second apart tell the rate and the time left.
  await waitFor(
    () =>
      expect(progress).toHaveTextContent(
        /^20,000 of 40,000 items \(50%\) · [\d,]+ items\/s · about \d+ s left$/,
      ),
    {
      timeout: 5_000,
    },
  );
  expect(progress.getAttribute('aria-valuetext')).toBe(progress.textContent);
  api.answer(`GET /api/jobs/${JOB_ID}`, () =>
    jsonResponse(200, job({ state: 'succeeded', done: 40_000, total: 40_000, result: RESULT })),
  );
  await waitFor(() => expect(onImported).toHaveBeenCalledWith(RESULT));
});

it("shows the job's count while Import still waits for the server's answer (issue 35)", async () => {
  const running = job({ list_id: LIST_ID, done: 5_000, total: 40_000 });
  const { api, dialog, user, onImported } = openDialog({
    [PREVIEW]: () => jsonResponse(200, preview()),
    [APPLY]: () => jsonResponse(200, RESULT),
    'GET /api/jobs': () => jsonResponse(200, { jobs: [running], unseen: 0 }),
    [`GET /api/jobs/${JOB_ID}`]: () => jsonResponse(200, running),
  });
  const answer = api.held(APPLY);
  await user.type(within(dialog).getByLabelText(/^Items/), '10.0.0.1');
  await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
  await user.click(await within(dialog).findByRole('button', { name: 'Import 2 items' }));
  const progress = await within(dialog).findByRole('progressbar', { name: 'Import progress' });
  await waitFor(() => expect(progress).toHaveTextContent('5,000 of 40,000 items (12%)'));
  expect(onImported).not.toHaveBeenCalled();
  answer.release();
  await waitFor(() => expect(onImported).toHaveBeenCalledWith(RESULT));
});

it("shows the server's words when the preview is refused", async () => {
  const message = 'The import has 100,001 lines; at most 100,000 are taken at once. Please split it.';
  const { user, dialog } = openDialog({
    [PREVIEW]: () => errorResponse(400, 'BAD_REQUEST', message),
  });
  await user.type(within(dialog).getByLabelText(/^Items/), '10.0.0.1');
  await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
  expect(await within(dialog).findByText(message)).toBeInTheDocument();
});
