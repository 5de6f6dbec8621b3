import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ITEM_SEARCH_DEBOUNCE_MS, type BanListItem, type BanListItemsPage } from '@guardian/contract';
import { setToken } from '../../lib/auth-token';
import { banListOf } from '../../test/ban-list';
import { capacityOf } from '../../test/capacity';
import { fakeApi } from '../../test/fake-api';
import { errorResponse, jsonResponse, renderApp } from '../../test/render-app';
import { stubResizeObserver } from '../../test/resize-observer';
import { banListItemsColumns } from '../../test/spec-columns';
import { columnHeaders } from '../../test/table';
import { sessionToken } from '../../test/token';
import { formatCreatedOn } from './components/ban-list-items-table';

const LIST_ID = '2c0fc9fa937b11eaa1b71c4d701ab86e';
const ITEMS_PATH = `/api/cloudflare/banlists/${LIST_ID}/items`;
const CREATED_ON = '2025-03-04T05:06:07Z';

const BAN_LISTS = [banListOf(1, 'blocked_ips', { list_id: LIST_ID, items: 1000 })];

const item = (id: number, overrides: Partial<BanListItem> = {}): BanListItem => ({
  id,
  ip: `10.0.${id >> 8}.${id & 255}`,
  comment: `Reason #${id}`,
  created_on: CREATED_ON,
  added_via: 'cloudflare',
  added_by: '',
  expires_at: null,
  ...overrides,
});

/**
 * The API over a list of `total` items (ids 1..total, newest first): it pages, searches and sorts by id
 * like the server.
 */
function itemsApi(total = 1000) {
  const api = fakeApi({
    'GET /api/cloudflare/banlists': () => jsonResponse(200, BAN_LISTS),
    [`GET ${ITEMS_PATH}`]: (call) => jsonResponse(200, itemsPage(call.params, total)),
    'GET /api/cloudflare/capacity': () => jsonResponse(200, { accounts: [] }),
  });
  return {
    ...api,
    /** The query of every GET of the items, in order. */
    itemRequests: () => api.callsTo(`GET ${ITEMS_PATH}`).map((call) => Object.fromEntries(call.params)),
  };
}

function itemsPage(params: URLSearchParams, total: number): BanListItemsPage {
  const search = params.get('search') ?? '';
  const page = Number(params.get('page'));
  const perPage = Number(params.get('per_page'));
  const ascending = params.get('order') === 'asc';
  const ids = Array.from({ length: total }, (_, i) => (ascending ? i + 1 : total - i));
  const found = ids.map((id) => item(id)).filter((entry) => entry.comment.includes(search));
  return {
    items: found.slice((page - 1) * perPage, page * perPage),
    totalItems: found.length,
    totalItemsCapped: false,
  };
}

const failure = (status: number, message: string) => () => errorResponse(status, 'UPSTREAM', message);

beforeEach(() => {
  setToken(sessionToken({ level: 1 }));
});

/** Opens the items screen and waits for its first row, the newest item (`Reason #{total}`). */
async function openItems(total = 1000) {
  const user = userEvent.setup();
  const view = renderApp(`/cloudflare/banlists/${LIST_ID}/items`);
  await screen.findByRole('heading', { name: 'blocked_ips' });
  await screen.findByText(`Reason #${total}`);
  return { user, ...view };
}

/**
 * The text of one column of the table's rows, in order. Read from the DOM rather than by role: role
 * queries over 100 rows take seconds under jsdom.
 */
function column(index: number): string[] {
  return Array.from(
    screen.getByRole('table').querySelectorAll('tbody tr'),
    (row) => (row as HTMLTableRowElement).cells[index]?.textContent ?? '',
  );
}

// Scoped queries: each row holds two buttons (its details and its delete), and a role query over the
// whole screen names every one of them.
const pageButton = (name: string) =>
  within(screen.getByRole('navigation', { name: 'Pagination' })).getByRole('button', { name });
const headerButton = (name: string) =>
  within(screen.getByRole('table').querySelector('thead')!).getByRole('button', { name });

const currentPage = () =>
  within(screen.getByRole('navigation', { name: 'Pagination' })).getByRole('button', { current: 'page' });

describe('ban list items table', () => {
  it('asks the server for page 1 of 100 newest first, and shows the list’s name and every column', async () => {
    const api = itemsApi();
    await openItems();
    expect(api.itemRequests()).toEqual([{ page: '1', per_page: '100', sort: 'id', order: 'desc' }]);
    expect(screen.getByText(`IP list of Guardian Demo · List ID: ${LIST_ID}`)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Ban Lists' })).toHaveAttribute(
      'href',
      '/cloudflare/banlists',
    );
    expect(columnHeaders()).toEqual(banListItemsColumns());
    expect(column(0).slice(0, 3)).toEqual(['1', '2', '3']);
    expect(column(1).slice(0, 2)).toEqual(['10.0.3.232', '10.0.3.231']);
    expect(column(3)[0]).toBe(formatCreatedOn(CREATED_ON));
    expect(column(3)[0]).not.toBe(CREATED_ON);
    expect(column(0)).toHaveLength(100);
    expect(screen.getByText('1,000 items')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Search IP or Comment...')).toBeInTheDocument();
  });

  it("names the value column by the list's kind: Hostname in a hostname list", async () => {
    const api = itemsApi();
    api.answer('GET /api/cloudflare/banlists', () =>
      jsonResponse(200, [{ ...BAN_LISTS[0]!, kind: 'hostname' }]),
    );
    await openItems();
    expect(columnHeaders()).toEqual(banListItemsColumns('Hostname'));
  });

  it('lets an IPv6 address wrap between its groups only, whatever the screen (issue 35 item 8)', async () => {
    stubResizeObserver();
    const address = '2001:db8:85a3:1234:5678:8a2e:370:7334';
    const api = itemsApi(1);
    api.answer(`GET ${ITEMS_PATH}`, () =>
      jsonResponse(200, { items: [item(1, { ip: address })], totalItems: 1, totalItemsCapped: false }),
    );
    await openItems(1);
    const value = screen.getByRole('button', { name: `Details of ${address}` });
    expect(value).toHaveTextContent(address);
    // Shown whole, on as many lines as its column needs: no tooltip would show the rest.
    expect(value.firstElementChild).not.toHaveClass('line-clamp-2');
    // A line may break after each colon (a <wbr>), and nowhere does the layout depend on the screen's
    // width: with the sidebar open a laptop's table is as narrow as a tablet's.
    expect(value.innerHTML.replace(/<\/?span[^>]*>/g, '')).toBe(address.replaceAll(':', ':<wbr>'));
    const table = screen.getByRole('table', { name: 'Ban list items' });
    const classes = [...table.querySelectorAll('*')].flatMap((element) => [...element.classList]);
    expect(
      classes.filter((name) => /^(max-)?(sm|md|lg|xl|2xl):(min-w|max-w|w-|truncate|whitespace)/.test(name)),
    ).toEqual([]);
  });

  it('cuts a long value after two lines and shows it whole in a tooltip (issue 35 item 8)', async () => {
    stubResizeObserver();
    const host = `${'very-long-label.'.repeat(5)}example.com`;
    const api = itemsApi(2);
    api.answer('GET /api/cloudflare/banlists', () =>
      jsonResponse(200, [{ ...BAN_LISTS[0]!, kind: 'hostname' }]),
    );
    api.answer(`GET ${ITEMS_PATH}`, () =>
      jsonResponse(200, {
        items: [item(2, { ip: host }), item(1, { ip: 'short.example.com' })],
        totalItems: 2,
        totalItemsCapped: false,
      }),
    );
    await openItems(2);
    const long = screen.getByRole('button', { name: `Details of ${host}` });
    expect(long.firstElementChild).toHaveClass('line-clamp-2');
    act(() => long.focus());
    expect(await screen.findByRole('tooltip')).toHaveTextContent(host);
    // A value that fits has no tooltip to show.
    act(() => screen.getByRole('button', { name: 'Details of short.example.com' }).focus());
    await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());
    vi.unstubAllGlobals();
  });

  it('pages on the server with numbered pages and ellipses, numbering rows across pages', async () => {
    const api = itemsApi(2000);
    const { user } = await openItems(2000);
    const pages = () =>
      within(screen.getByRole('navigation', { name: 'Pagination' }))
        .getAllByRole('listitem')
        .map((entry) => entry.textContent);
    expect(pages()).toEqual(['1', '2', '3', '…', '20']);

    await user.click(pageButton('Page 3'));
    await waitFor(() => expect(column(0)[0]).toBe('201'));
    expect(column(2)[0]).toBe('Reason #1800');
    expect(api.itemRequests().at(-1)).toEqual({ page: '3', per_page: '100', sort: 'id', order: 'desc' });
    expect(pages()).toEqual(['1', '2', '3', '4', '5', '…', '20']);

    await user.click(pageButton('Page 20'));
    await waitFor(() => expect(column(0).at(-1)).toBe('2000'));
    expect(column(2).at(-1)).toBe('Reason #1');
    expect(screen.getByRole('button', { name: /Next/ })).toBeDisabled();
  });

  it('keeps the page on screen while the next one loads', async () => {
    const api = itemsApi();
    const { user } = await openItems();
    const loading = api.held(`GET ${ITEMS_PATH}`);
    await user.click(pageButton('Page 2'));
    await waitFor(() => expect(api.itemRequests()).toHaveLength(2));
    expect(column(2)[0]).toBe('Reason #1000');
    expect(screen.queryByText('Loading items...')).not.toBeInTheDocument();

    loading.release();
    await waitFor(() => expect(column(2)[0]).toBe('Reason #900'));
    expect(currentPage()).toHaveTextContent('2');
  });

  it('sorts on the server: a header sorts ascending, a second click descending, and page 1 comes back', async () => {
    const api = itemsApi();
    const { user } = await openItems();
    expect(screen.getByRole('columnheader', { name: 'No' })).toHaveAttribute('aria-sort', 'descending');
    await user.click(pageButton('Page 2'));
    await waitFor(() => expect(column(0)[0]).toBe('101'));

    await user.click(headerButton('IP Address'));
    await waitFor(() =>
      expect(api.itemRequests().at(-1)).toEqual({ page: '1', per_page: '100', sort: 'ip', order: 'asc' }),
    );
    expect(screen.getByRole('columnheader', { name: 'IP Address' })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    await user.click(headerButton('IP Address'));
    await waitFor(() => expect(api.itemRequests().at(-1)).toMatchObject({ sort: 'ip', order: 'desc' }));
    await user.click(headerButton('Created On'));
    await waitFor(() =>
      expect(api.itemRequests().at(-1)).toMatchObject({ sort: 'created_on', order: 'asc' }),
    );
    await user.click(headerButton('Comment'));
    await waitFor(() => expect(api.itemRequests().at(-1)).toMatchObject({ sort: 'comment', order: 'asc' }));
    await user.click(headerButton('No'));
    await waitFor(() => expect(api.itemRequests().at(-1)).toMatchObject({ sort: 'id', order: 'asc' }));
    await waitFor(() => expect(column(2)[0]).toBe('Reason #1'));
    expect(currentPage()).toHaveTextContent('1');
  });

  it('searches 300 ms after the last keystroke and goes back to page 1', async () => {
    const api = itemsApi();
    const { user } = await openItems();
    await user.click(pageButton('Page 3'));
    await waitFor(() => expect(column(0)[0]).toBe('201'));
    const requestsBefore = api.itemRequests().length;

    // Keystrokes as change events on a held clock: a busy machine cannot space them 300 ms apart.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const search = screen.getByPlaceholderText('Search IP or Comment...');
    for (const typed of ['#', '#9', '#99']) fireEvent.change(search, { target: { value: typed } });
    await act(() => vi.advanceTimersByTimeAsync(ITEM_SEARCH_DEBOUNCE_MS - 1));
    expect(api.itemRequests()).toHaveLength(requestsBefore);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(api.itemRequests()).toHaveLength(requestsBefore + 1);
    expect(api.itemRequests().at(-1)).toEqual({
      search: '#99',
      page: '1',
      per_page: '100',
      sort: 'id',
      order: 'desc',
    });
    // The answer's render is scheduled on the held clock too.
    await act(() => vi.advanceTimersByTimeAsync(100));
    vi.useRealTimers();

    await waitFor(() => expect(column(2)[0]).toBe('Reason #999'));
    expect(screen.getByText('11 matches')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();

    await user.clear(screen.getByPlaceholderText('Search IP or Comment...'));
    await user.type(screen.getByPlaceholderText('Search IP or Comment...'), 'nothing like it');
    expect(await screen.findByText('No items match your search.')).toBeInTheDocument();
  });

  /** Pages of a search counted as the server counts them: at most two pages past the one asked for. */
  const cappedItemsPage = (call: { params: URLSearchParams }) => {
    const page = itemsPage(call.params, 1000);
    if (!call.params.has('search')) return page;
    const counted = (Number(call.params.get('page')) + 2) * Number(call.params.get('per_page'));
    return {
      ...page,
      totalItems: Math.min(page.totalItems, counted),
      totalItemsCapped: page.totalItems > counted,
    };
  };
  const COUNT_PATH = `${ITEMS_PATH}/count`;
  const pageButtons = () =>
    within(screen.getByRole('navigation', { name: 'Pagination' }))
      .getAllByRole('button', { name: /^Page / })
      .map((button) => button.textContent);

  it('shows the exact total and the last page once the count arrives, after the page', async () => {
    const api = itemsApi();
    api.answer(`GET ${ITEMS_PATH}`, (call) => jsonResponse(200, cappedItemsPage(call)));
    api.answer(`GET ${COUNT_PATH}`, () => jsonResponse(200, { totalItems: 1000 }));
    const counting = api.held(`GET ${COUNT_PATH}`);
    const { user } = await openItems();
    await user.type(screen.getByPlaceholderText('Search IP or Comment...'), 'Reason');
    // The page first, with what it counted: three pages so far.
    expect(await screen.findByText('More than 300 matches')).toBeInTheDocument();
    expect(pageButtons()).toEqual(['1', '2', '3']);
    await waitFor(() => expect(api.callsTo(`GET ${COUNT_PATH}`)).toHaveLength(1));
    expect(Object.fromEntries(api.callsTo(`GET ${COUNT_PATH}`)[0]!.params)).toEqual({ search: 'Reason' });
    expect(api.calls.findIndex((call) => call.path === COUNT_PATH)).toBeGreaterThan(
      api.calls.findIndex((call) => call.params.get('search') === 'Reason'),
    );

    counting.release();
    expect(await screen.findByText('1,000 matches')).toBeInTheDocument();
    expect(screen.queryByText(/More than/)).not.toBeInTheDocument();
    expect(pageButtons()).toEqual(['1', '2', '3', '10']);
    await user.click(pageButton('Page 10'));
    await waitFor(() => expect(currentPage()).toHaveTextContent('10'));
    await waitFor(() => expect(column(2)[0]).toBe('Reason #100'));
    expect(pageButtons()).toEqual(['1', '8', '9', '10']);
    expect(screen.getByText('1,000 matches')).toBeInTheDocument();
    // Counted once for the search, whatever page is shown.
    expect(api.callsTo(`GET ${COUNT_PATH}`)).toHaveLength(1);
  });

  it('pages a search with more matches than it shows up to its first 10,000, and says so', async () => {
    const api = itemsApi();
    api.answer(`GET ${ITEMS_PATH}`, (call) => jsonResponse(200, cappedItemsPage(call)));
    api.answer(`GET ${COUNT_PATH}`, () => jsonResponse(200, { totalItems: 25_000 }));
    const { user } = await openItems();
    await user.type(screen.getByPlaceholderText('Search IP or Comment...'), 'Reason');
    expect(await screen.findByText('25,000 matches (the first 10,000 shown)')).toBeInTheDocument();
    expect(pageButtons()).toEqual(['1', '2', '3', '100']);
  });

  it('keeps saying "More than" when the count fails', async () => {
    const api = itemsApi();
    api.answer(`GET ${ITEMS_PATH}`, (call) => jsonResponse(200, cappedItemsPage(call)));
    api.answer(`GET ${COUNT_PATH}`, failure(503, 'The database is not answering.'));
    const { user } = await openItems();
    await user.type(screen.getByPlaceholderText('Search IP or Comment...'), 'Reason');
    expect(await screen.findByText('More than 300 matches')).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo(`GET ${COUNT_PATH}`).length).toBeGreaterThan(0));
    expect(screen.getByText('More than 300 matches')).toBeInTheDocument();
    expect(column(2)).toHaveLength(100);
  });

  it('replaces the page with the spec’s message when the items cannot be fetched', async () => {
    const api = itemsApi();
    api.answer(`GET ${ITEMS_PATH}`, failure(404, 'Ban list not found.'));
    renderApp(`/cloudflare/banlists/${LIST_ID}/items`);
    expect(await screen.findByRole('alert')).toHaveTextContent(`Failed to fetch items for list ${LIST_ID}.`);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Ban Lists' })).toBeInTheDocument();
  });

  it('sends a person without a token to /login', async () => {
    itemsApi();
    localStorage.clear();
    const { router } = renderApp(`/cloudflare/banlists/${LIST_ID}/items`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});

describe('Update from Cloudflare', () => {
  it('asks with the spec’s words, says Syncing... meanwhile, then re-fetches the items', async () => {
    const api = itemsApi();
    const { user } = await openItems();
    const syncing = api.held(`POST /api/cloudflare/banlists/${LIST_ID}/sync`);
    await user.click(screen.getByRole('button', { name: 'Update from Cloudflare' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update from Cloudflare' });
    expect(dialog).toHaveTextContent(
      'Are you sure you want to sync this list with Cloudflare? This will fetch all items and update the database.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Sync' }));
    expect(await within(dialog).findByRole('button', { name: 'Syncing...' })).toBeDisabled();

    api.answer(`GET ${ITEMS_PATH}`, (call) => jsonResponse(200, itemsPage(call.params, 1001)));
    syncing.release(jsonResponse(200, { ...BAN_LISTS[0], items: 1001 }));
    await waitFor(() => expect(column(2)[0]).toBe('Reason #1001'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('List synced with Cloudflare.');
  });

  it('says Failed to sync items. Please try again. when the sync fails', async () => {
    const api = itemsApi();
    api.answer(`POST /api/cloudflare/banlists/${LIST_ID}/sync`, failure(502, 'Cloudflare is down'));
    const { user } = await openItems();
    await user.click(screen.getByRole('button', { name: 'Update from Cloudflare' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sync' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to sync items. Please try again. Cloudflare is down',
    );
  });
});

describe('Add item', () => {
  async function openAdd() {
    const api = itemsApi();
    const view = await openItems();
    await view.user.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Item' });
    return { ...view, api, dialog };
  }

  it("warns when one more item would pass the quota of the list's account", async () => {
    const api = itemsApi();
    api.answer('GET /api/cloudflare/capacity', () =>
      jsonResponse(200, {
        accounts: [capacityOf('Guardian Demo', 'acc-guardian', 'free', 'assumed', [1, 1], [10_000, 10_000])],
      }),
    );
    const { user } = await openItems();
    await user.click(screen.getByRole('button', { name: 'Add' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Item' });
    expect(await within(dialog).findByRole('note')).toHaveTextContent(
      '"Guardian Demo" has 10,000 of 10,000 list items (Free plan): 1 more would pass it (0 left).',
    );
  });

  it('requires the IP address or CIDR and the comment', async () => {
    const { user, api, dialog } = await openAdd();
    await user.click(within(dialog).getByRole('button', { name: 'Add Item' }));
    expect(within(dialog).getByText('IP Address / CIDR is required.')).toBeInTheDocument();
    expect(within(dialog).getByText('Comment is required.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/IP Address \/ CIDR/), '203.0.113.9');
    await user.click(within(dialog).getByRole('button', { name: 'Add Item' }));
    expect(within(dialog).queryByText('IP Address / CIDR is required.')).not.toBeInTheDocument();
    expect(within(dialog).getByText('Comment is required.')).toBeInTheDocument();
    expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('adds the item, says Adding... meanwhile, then re-fetches the page', async () => {
    const { user, api, dialog } = await openAdd();
    const adding = api.held(`POST ${ITEMS_PATH}`);
    await user.type(within(dialog).getByLabelText(/IP Address \/ CIDR/), '203.0.113.0/24');
    await user.type(within(dialog).getByLabelText(/Comment/), 'Botnet range');
    await user.click(within(dialog).getByRole('button', { name: 'Add Item' }));
    expect(await within(dialog).findByRole('button', { name: 'Adding...' })).toBeDisabled();
    expect(api.calls.at(-1)?.body).toEqual({
      ip: '203.0.113.0/24',
      comment: 'Botnet range',
      expires: 'never',
    });

    const added = item(1001, { ip: '203.0.113.0/24', comment: 'Botnet range' });
    api.answer(`GET ${ITEMS_PATH}`, (call) =>
      jsonResponse(200, { ...itemsPage(call.params, 1000), items: [added], totalItems: 1001 }),
    );
    adding.release(jsonResponse(201, added));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(column(1)[0]).toBe('203.0.113.0/24');
    expect(screen.getByRole('status')).toHaveTextContent('203.0.113.0/24 added.');
  });

  it('says what a CIDR covers, and asks before banning a range wider than a /16', async () => {
    const { user, api, dialog } = await openAdd();
    const adding = api.held(`POST ${ITEMS_PATH}`);
    await user.type(within(dialog).getByLabelText(/IP Address \/ CIDR/), '10.1.2.3/8');
    await user.type(within(dialog).getByLabelText(/Comment/), 'typo?');
    expect(within(dialog).getByRole('note')).toHaveTextContent(
      '10.0.0.0/8 covers 10.0.0.0 – 10.255.255.255 (16,777,216 addresses). What you typed is widened to 10.0.0.0/8.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Add Item' }));
    expect(await within(dialog).findByText('Confirm the range below to ban all of it.')).toBeInTheDocument();
    expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(0);

    await user.click(
      within(dialog).getByRole('checkbox', { name: /Ban all 16,777,216 addresses of 10.0.0.0\/8/ }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Add Item' }));
    await waitFor(() => expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(1));
    adding.release(jsonResponse(201, item(1001, { ip: '10.0.0.0/8', comment: 'typo?' })));
  });

  it('shows the server’s message, or An unknown error occurred.', async () => {
    const { user, api, dialog } = await openAdd();
    api.answer(`POST ${ITEMS_PATH}`, failure(409, '203.0.113.9 is already in this list.'));
    await user.type(within(dialog).getByLabelText(/IP Address \/ CIDR/), '203.0.113.9');
    await user.type(within(dialog).getByLabelText(/Comment/), 'Again');
    await user.click(within(dialog).getByRole('button', { name: 'Add Item' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      '203.0.113.9 is already in this list.',
    );

    api.answer(`POST ${ITEMS_PATH}`, () => new Response('Bad gateway', { status: 502 }));
    await user.click(within(dialog).getByRole('button', { name: 'Add Item' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent('An unknown error occurred.'),
    );
  });
});

describe('Delete item', () => {
  it('asks with the spec’s words, says Deleting... meanwhile, deletes and re-fetches', async () => {
    const api = itemsApi();
    const { user } = await openItems();
    const deleting = api.held(`DELETE ${ITEMS_PATH}/1000`);
    await user.click(screen.getByRole('button', { name: 'Delete 10.0.3.232' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Item' });
    expect(dialog).toHaveTextContent(
      'Are you sure you want to delete this item? This will remove it from Cloudflare and the local database.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByRole('button', { name: 'Deleting...' })).toBeDisabled();

    api.answer(`GET ${ITEMS_PATH}`, (call) => jsonResponse(200, itemsPage(call.params, 999)));
    deleting.release(new Response(null, { status: 204 }));
    await waitFor(() => expect(column(2)[0]).toBe('Reason #999'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows the page before when the last item of the last page goes', async () => {
    const api = itemsApi(101);
    const { user } = await openItems(101);
    await user.click(pageButton('Page 2'));
    await waitFor(() => expect(column(0)).toEqual(['101']));
    await user.click(screen.getByRole('button', { name: 'Delete 10.0.0.1' }));
    api.answer(`DELETE ${ITEMS_PATH}/1`, () => new Response(null, { status: 204 }));
    api.answer(`GET ${ITEMS_PATH}`, (call) => jsonResponse(200, itemsPage(call.params, 100)));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(column(0)).toHaveLength(100));
    expect(api.itemRequests().at(-1)).toMatchObject({ page: '1' });
  });

  it('says Failed to delete item. Please try again. when the delete fails', async () => {
    const api = itemsApi();
    api.answer(`DELETE ${ITEMS_PATH}/1000`, failure(502, 'Cloudflare is down'));
    const { user } = await openItems();
    await user.click(screen.getByRole('button', { name: 'Delete 10.0.3.232' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to delete item. Please try again.');
    expect(column(1)[0]).toBe('10.0.3.232');
  });
});
