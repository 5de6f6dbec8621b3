import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BanListItemsPage } from '@guardian/contract';
import { setToken } from '../../../lib/auth-token';
import { banListOf } from '../../../test/ban-list';
import { fakeApi } from '../../../test/fake-api';
import { errorResponse, jsonResponse, renderApp } from '../../../test/render-app';
import { sessionToken } from '../../../test/token';

const LIST_ID = '2c0fc9fa937b11eaa1b71c4d701ab86e';
const EXPORT = `GET /api/cloudflare/banlists/${LIST_ID}/items/export`;
const CSV = 'value,comment,expires,added_by,added_at\r\n10.0.0.1,"a, b",never,,2025-03-04T05:06:07.000Z\r\n';

const LISTS = [banListOf(1, 'blocked_ips', { account_id: 'acc', list_id: LIST_ID, items: 1 })];
const PAGE: BanListItemsPage = {
  items: [
    {
      id: 1,
      ip: '10.0.0.1',
      comment: 'a, b',
      created_on: '2025-03-04T05:06:07Z',
      added_via: 'cloudflare',
      added_by: '',
      expires_at: null,
    },
  ],
  totalItems: 1,
  totalItemsCapped: false,
};

const text = (body: string, type: string) =>
  new Response(body, { status: 200, headers: { 'Content-Type': `${type}; charset=utf-8` } });

/** What the download saved: the blob's text and the file name, per click of the hidden link. */
function captureDownloads() {
  const saved: { name: string; blob: Blob }[] = [];
  let lastBlob: Blob | undefined;
  vi.stubGlobal(
    'URL',
    Object.assign(URL, {
      createObjectURL: vi.fn((blob: Blob) => ((lastBlob = blob), 'blob:export')),
      revokeObjectURL: vi.fn(),
    }),
  );
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: lastBlob! });
  });
  return saved;
}

/** jsdom's Blob has no text(): read it as a browser of old did. */
const blobText = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(blob);
  });

beforeEach(() => setToken(sessionToken({ level: 1 })));
afterEach(() => vi.restoreAllMocks());

async function openItems() {
  const user = userEvent.setup();
  renderApp(`/cloudflare/banlists/${LIST_ID}/items`);
  await screen.findByText('a, b');
  return user;
}

describe('Export on the ban list items screen', () => {
  it('downloads the whole list as CSV, carrying the session', async () => {
    const api = fakeApi({
      'GET /api/cloudflare/banlists': () => jsonResponse(200, LISTS),
      [`GET /api/cloudflare/banlists/${LIST_ID}/items`]: () => jsonResponse(200, PAGE),
      [EXPORT]: () => text(CSV, 'text/csv'),
    });
    const saved = captureDownloads();
    const user = await openItems();
    // The spec's buttons stay beside it.
    expect(screen.getByRole('button', { name: 'Update from Cloudflare' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Export' }));
    const dialog = await screen.findByRole('dialog', { name: 'Export Items' });
    // Without a search there is only the whole list to export.
    expect(within(dialog).queryByRole('radio', { name: /The whole list/ })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: /^CSV/ })).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.name).toBe('blocked_ips.csv');
    expect(await blobText(saved[0]!.blob)).toBe(CSV);
    const call = api.callsTo(EXPORT)[0]!;
    expect(Object.fromEntries(call.params)).toEqual({ format: 'csv' });
    expect(await screen.findByText('blocked_ips.csv downloaded.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("exports the search's matches as TXT, or the whole list when chosen", async () => {
    const api = fakeApi({
      'GET /api/cloudflare/banlists': () => jsonResponse(200, LISTS),
      [`GET /api/cloudflare/banlists/${LIST_ID}/items`]: () => jsonResponse(200, PAGE),
      [EXPORT]: () => text('10.0.0.1\n', 'text/plain'),
    });
    const saved = captureDownloads();
    const user = await openItems();
    await user.type(screen.getByRole('searchbox', { name: 'Search items' }), '10.0.0');
    await waitFor(() =>
      expect(
        api.callsTo(`GET /api/cloudflare/banlists/${LIST_ID}/items`).some((c) => c.params.get('search')),
      ).toBe(true),
    );
    await user.click(screen.getByRole('button', { name: 'Export' }));
    const dialog = await screen.findByRole('dialog', { name: 'Export Items' });
    expect(within(dialog).getByRole('radio', { name: /matches of the search “10\.0\.0”/ })).toBeChecked();
    await user.click(within(dialog).getByRole('radio', { name: /^TXT/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.name).toBe('blocked_ips-search.txt');
    expect(await blobText(saved[0]!.blob)).toBe('10.0.0.1\n');
    expect(Object.fromEntries(api.callsTo(EXPORT)[0]!.params)).toEqual({ format: 'txt', search: '10.0.0' });

    await user.click(screen.getByRole('button', { name: 'Export' }));
    const again = await screen.findByRole('dialog', { name: 'Export Items' });
    await user.click(within(again).getByRole('radio', { name: 'The whole list' }));
    await user.click(within(again).getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(Object.fromEntries(api.callsTo(EXPORT)[1]!.params)).toEqual({ format: 'txt' });
  });

  it('keeps the dialog open with the reason when the export fails', async () => {
    fakeApi({
      'GET /api/cloudflare/banlists': () => jsonResponse(200, LISTS),
      [`GET /api/cloudflare/banlists/${LIST_ID}/items`]: () => jsonResponse(200, PAGE),
      [EXPORT]: () => errorResponse(404, 'NOT_FOUND', 'Ban list not found.'),
    });
    captureDownloads();
    const user = await openItems();
    await user.click(screen.getByRole('button', { name: 'Export' }));
    const dialog = await screen.findByRole('dialog', { name: 'Export Items' });
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Failed to export items. Ban list not found.',
    );
  });
});
