import { expect, test, type Locator, type Page, type Route } from '@playwright/test';
import { shareSignedInPage } from './support/session';
import { DEMO_USER } from './support/stack';
import { ACCOUNTS_COLUMNS, BAN_LISTS_COLUMNS, banListItemsColumns } from '../apps/web/src/test/spec-columns';

// The demo stack is shared with the specs that run after this one: this spec adds the spare account
// and works on a list of its own; it only reads the seeded lists. Clean All empties every list, so it
// lives in clean-all.spec.ts, which runs last.
const listName = `e2e_list_${Date.now().toString(36)}`;
const BAN_LIST_PATH = /^\/api\/cloudflare\/banlists\/\d+$/;
const ITEM_PATH = /\/items\/\d+$/;

let page: Page;
shareSignedInPage(DEMO_USER, (signedIn) => (page = signedIn));

/** The row with a cell named `text`, or an item's row whose address (a button opening its details) is `text`. */
const rowWith = (text: string) =>
  page.getByRole('row').filter({
    has: page
      .getByRole('cell', { name: text, exact: true })
      .or(page.getByRole('button', { name: `Details of ${text}`, exact: true })),
  });
const cells = (row: Locator) => row.getByRole('cell');
const currentPage = () =>
  page.getByRole('navigation', { name: 'Pagination' }).locator('[aria-current="page"]');
const toast = (text: string) => page.getByRole('alert').filter({ hasText: text });
const success = (text: string) => page.getByRole('status').filter({ hasText: text });

/** A path: its end, or a pattern. */
type PathMatch = string | RegExp;

/**
 * Routes the next `method` call to a matching path to `handle`, then stops routing. (The route is
 * removed only after `handle`: removing the last route frees a request held by it.)
 */
async function routeNext(method: string, path: PathMatch, handle: (route: Route) => Promise<void>) {
  let used = false;
  const matcher = (url: URL) =>
    typeof path === 'string' ? url.pathname.endsWith(path) : path.test(url.pathname);
  const handler = async (route: Route) => {
    if (used || route.request().method() !== method) return route.fallback();
    used = true;
    await handle(route);
    await page.unroute(matcher, handler);
  };
  await page.route(matcher, handler);
}

/** Holds the next `method` call to a matching path until `release()`, to see the busy labels. */
async function holdNext(method: string, path: PathMatch) {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await routeNext(method, path, async (route) => {
    await released;
    await route.fallback();
  });
  return { release };
}

/**
 * Answers the next `method` call to a matching path with a failure carrying a message. (A load is
 * failed with a 4xx, which the app does not retry.)
 */
async function failNext(method: string, path: PathMatch, status = 502) {
  await routeNext(method, path, (route) =>
    route.fulfill({
      status,
      contentType: 'application/json',
      body: JSON.stringify({
        code: status === 502 ? 'UPSTREAM' : 'FORBIDDEN',
        message: 'Cloudflare is down',
        errors: [{ message: 'Cloudflare is down' }],
      }),
    }),
  );
}

test.describe('Cloudflare Accounts', () => {
  test('lists the demo accounts with masked tokens; search and sort', async () => {
    await page.goto('/cloudflare/accounts');
    await expect(page.getByRole('heading', { name: 'Cloudflare Accounts' })).toBeVisible();
    await expect(page.getByRole('columnheader')).toHaveText(ACCOUNTS_COLUMNS);
    // Under each masked token, its state at Cloudflare.
    await expect(cells(rowWith('Guardian Demo'))).toHaveText([
      '1',
      'Guardian Demo',
      /\S+/,
      /^\*{4}en-1Valid/,
      '',
    ]);
    await expect(cells(rowWith('Acme Security')).nth(3)).toHaveText(/^\*{4}en-2Valid/);
    await expect(page.getByRole('columnheader', { name: 'No' })).toHaveAttribute('aria-sort', 'ascending');

    await page.getByRole('button', { name: 'Account Name', exact: true }).click();
    await expect(cells(page.getByRole('row').nth(1)).nth(1)).toHaveText('Acme Security');
    await page.getByRole('button', { name: 'Account Name', exact: true }).click();
    await expect(page.getByRole('columnheader', { name: 'Account Name' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    await expect(cells(page.getByRole('row').nth(1)).nth(1)).toHaveText('Guardian Demo');

    const search = page.getByPlaceholder('Search Account Name or ID...');
    await search.fill('acme');
    await expect(page.getByRole('row')).toHaveCount(2);
    const acmeId = await cells(rowWith('Acme Security')).nth(2).textContent();
    await search.fill(acmeId!.slice(0, 8));
    await expect(rowWith('Acme Security')).toBeVisible();
    await search.fill('');
    await page.getByRole('button', { name: 'No', exact: true }).click();
  });

  test('Add Account checks the fields, says Verifying..., shows server messages and appends the account', async () => {
    await page.goto('/cloudflare/accounts');
    await page.getByRole('button', { name: 'Add Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Account' });
    await dialog.getByRole('button', { name: 'Add Account' }).click();
    await expect(dialog.getByText('Account name is required.')).toBeVisible();
    await expect(dialog.getByText('API token is required.')).toBeVisible();

    await dialog.getByLabel('Account Name').fill('Spare Account');
    await dialog.getByLabel('API Token').fill('cfsandbox-not-a-token');
    await dialog.getByRole('button', { name: 'Add Account' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Cloudflare refused this API token');

    await dialog.getByLabel('Account Name').fill('Guardian Demo');
    await dialog.getByLabel('API Token').fill('cfsandbox-demo-token-3');
    await dialog.getByRole('button', { name: 'Add Account' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('You already have an account named "Guardian Demo".');

    await dialog.getByLabel('Account Name').fill('Spare Account');
    const held = await holdNext('POST', '/api/cloudflare/accounts');
    await dialog.getByRole('button', { name: 'Add Account' }).click();
    await expect(dialog.getByRole('button', { name: 'Verifying...' })).toBeDisabled();
    held.release();
    await expect(dialog).toBeHidden();
    await expect(cells(rowWith('Spare Account'))).toHaveText([
      '3',
      'Spare Account',
      /\S+/,
      /^\*{4}en-3Valid/,
      '',
    ]);
    await expect(success('Account added.')).toBeVisible();
  });

  test('a new account brings its lists and items; Edit renames it and replaces its token; Delete says what goes (issue 35 items 4, 5)', async () => {
    // Its list is on the Ban Lists screen with its item, synced by a job the add queued.
    await page.goto('/cloudflare/banlists');
    await expect(cells(rowWith('spare_list')).nth(1)).toHaveText('Spare Account');
    await expect(rowWith('spare_list').getByRole('link', { name: /^1 items? in spare_list$/ })).toBeVisible();

    await page.goto('/cloudflare/accounts');
    await page.getByRole('button', { name: 'Edit Spare Account' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Account' });
    await expect(edit.getByLabel('Account Name')).toHaveValue('Spare Account');
    await edit.getByLabel('Account Name').fill('Spare Renamed');
    // Another account's token is refused: the token must be of this same Cloudflare account.
    await edit.getByLabel('New API Token').fill('cfsandbox-demo-token-1');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit.getByRole('alert')).toContainText('This API token cannot see the Cloudflare account');
    await edit.getByLabel('New API Token').fill('');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toBeHidden();
    await expect(success('Account Spare Renamed saved.')).toBeVisible();
    await expect(cells(rowWith('Spare Renamed')).nth(3)).toHaveText(/^\*{4}en-3Valid/);

    await page.getByRole('button', { name: 'Edit Spare Renamed' }).click();
    await edit.getByLabel('Account Name').fill('Spare Account');
    await edit.getByLabel('New API Token').fill('cfsandbox-demo-token-3');
    const verifying = await holdNext('PUT', /^\/api\/cloudflare\/accounts\/\d+$/);
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit.getByRole('button', { name: 'Verifying...' })).toBeDisabled();
    verifying.release();
    await expect(edit).toBeHidden();
    await expect(cells(rowWith('Spare Account')).nth(3)).toHaveText(/^\*{4}en-3Valid/);

    await page.getByRole('button', { name: 'Delete Spare Account' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Account' });
    await expect(confirm).toContainText(
      'Its 1 ban list with 1 item, its 0 zones and the snapshots that kept them are removed from Guardian.',
    );
    await expect(confirm).toContainText('Nothing is deleted at Cloudflare');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(success('Account Spare Account deleted.')).toBeVisible();
    await expect(rowWith('Spare Account')).toHaveCount(0);
    await page.goto('/cloudflare/banlists');
    await expect(page.getByRole('heading', { name: 'Ban Lists' })).toBeVisible();
    await expect(rowWith('blocked_ips')).toBeVisible();
    await expect(rowWith('spare_list')).toHaveCount(0);

    // Nothing was deleted at Cloudflare: added again, it comes back with its list and item.
    await page.goto('/cloudflare/accounts');
    await page.getByRole('button', { name: 'Add Account' }).click();
    const add = page.getByRole('dialog', { name: 'Add Account' });
    await add.getByLabel('Account Name').fill('Spare Account');
    await add.getByLabel('API Token').fill('cfsandbox-demo-token-3');
    await add.getByRole('button', { name: 'Add Account' }).click();
    await expect(add).toBeHidden();
    await page.goto('/cloudflare/banlists');
    await expect(rowWith('spare_list').getByRole('link', { name: /^1 items? in spare_list$/ })).toBeVisible();
  });
});

test.describe('Ban Lists', () => {
  test('lists the seeded lists and the spare account’s; a failed update says so', async () => {
    await page.goto('/cloudflare/banlists');
    await expect(page.getByRole('heading', { name: 'Ban Lists' })).toBeVisible();
    await expect(page.getByRole('columnheader')).toHaveText(BAN_LISTS_COLUMNS);
    const blocked = rowWith('blocked_ips');
    await expect(cells(blocked).nth(1)).toHaveText('Guardian Demo');
    await expect(cells(blocked).nth(5)).toHaveText('ip');
    await expect(blocked.getByRole('link', { name: '10,000 items in blocked_ips' })).toHaveText('10,000');
    await expect(cells(rowWith('partner_hosts')).nth(5)).toHaveText('hostname');
    await expect(cells(rowWith('acme_bad_actors')).nth(6)).toHaveText('150');

    await page.getByRole('button', { name: 'Items', exact: true }).click();
    await expect(cells(page.getByRole('row').nth(1)).nth(3)).toHaveText('partner_hosts');
    await page.getByRole('button', { name: 'Items', exact: true }).click();
    await expect(cells(page.getByRole('row').nth(1)).nth(3)).toHaveText('blocked_ips');
    await page.getByRole('button', { name: 'No', exact: true }).click();
    await expect(page.getByRole('columnheader', { name: 'No' })).toHaveAttribute('aria-sort', 'ascending');

    await failNext('POST', '/api/cloudflare/banlists/update');
    await page.getByRole('button', { name: 'Update', exact: true }).click();
    await expect(toast('Failed to update ban lists. Please try again.')).toBeVisible();

    await page.getByRole('button', { name: 'Update', exact: true }).click();
    await expect(success('Ban lists updated.')).toBeVisible();
    await expect(cells(rowWith('spare_list')).nth(1)).toHaveText('Spare Account');
    await expect(cells(rowWith('spare_list')).nth(6)).toHaveText('1');
  });

  test('Add checks the fields and shows the server’s messages', async () => {
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Ban List' });
    await expect(dialog.getByLabel('List Name')).toHaveAccessibleDescription(
      'Use only lowercase letters, numbers and underscores, at most 50 characters.',
    );
    await expect(dialog.getByLabel('Type').locator('option')).toHaveText([
      'ip',
      'redirect',
      'hostname',
      'asn',
    ]);
    await dialog.getByRole('button', { name: 'Add Ban List' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('All fields are required.');

    await dialog.getByLabel('Account').selectOption({ label: 'Spare Account' });
    await dialog.getByLabel('List Name').fill('Not Valid');
    await dialog.getByRole('button', { name: 'Add Ban List' }).click();
    await expect(dialog.getByText(/^List name is not valid\./)).toBeVisible();

    // The spare account's free plan holds one list, and spare_list is it.
    await dialog.getByLabel('List Name').fill(listName);
    await dialog.getByRole('button', { name: 'Add Ban List' }).click();
    await expect(dialog.getByRole('alert')).toContainText('maximum number of lists (1) for your plan');
    await dialog.getByLabel('Account').selectOption({ label: 'Guardian Demo' });
    await failNext('POST', '/api/cloudflare/banlists');
    await dialog.getByRole('button', { name: 'Add Ban List' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Cloudflare is down');
    await routeNext('POST', '/api/cloudflare/banlists', (route) => route.fulfill({ status: 502, body: '' }));
    await dialog.getByRole('button', { name: 'Add Ban List' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Failed to add ban list.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  test('the Add dialog says Could not load accounts. when the accounts cannot be loaded', async () => {
    await failNext('GET', '/api/cloudflare/accounts', 403);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Ban List' });
    await expect(dialog.getByRole('alert')).toHaveText('Could not load accounts.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });
});

test.describe('Update from Cloudflare', () => {
  test('syncs the spare list’s item from Cloudflare, with the spec’s confirmation and Syncing...', async () => {
    await rowWith('spare_list')
      .getByRole('link', { name: /^1 items? in spare_list$/ })
      .click();
    await expect(page.getByRole('heading', { name: 'spare_list' })).toBeVisible();

    await failNext('POST', '/sync');
    await page.getByRole('button', { name: 'Update from Cloudflare' }).click();
    const dialog = page.getByRole('dialog', { name: 'Update from Cloudflare' });
    await expect(dialog).toContainText(
      'Are you sure you want to sync this list with Cloudflare? This will fetch all items and update the database.',
    );
    await dialog.getByRole('button', { name: 'Sync' }).click();
    await expect(toast('Failed to sync items. Please try again.')).toBeVisible();

    await page.getByRole('button', { name: 'Update from Cloudflare' }).click();
    const held = await holdNext('POST', '/sync');
    await dialog.getByRole('button', { name: 'Sync' }).click();
    await expect(dialog.getByRole('button', { name: 'Syncing...' })).toBeDisabled();
    held.release();
    await expect(dialog).toBeHidden();
    await expect(cells(rowWith('198.51.100.200'))).toHaveText([
      '1',
      '198.51.100.200',
      'Example entry',
      /\d/,
      'Never',
      'Added at Cloudflare',
      '',
    ]);
    await expect(success('List synced with Cloudflare.')).toBeVisible();

    await page.getByRole('link', { name: 'Back to Ban Lists' }).click();
    await expect(cells(rowWith('spare_list')).nth(6)).toHaveText('1');
  });
});

test.describe('Delete ban list', () => {
  test('deletes the spare list: asks with the spec’s words, says Deleting...; a failed delete says so', async () => {
    const row = rowWith('spare_list');
    await failNext('DELETE', BAN_LIST_PATH);
    await row.getByRole('button', { name: `Delete spare_list` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Ban List' });
    await expect(dialog).toContainText(
      'Are you sure you want to delete this ban list? This action cannot be undone.',
    );
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(toast('Failed to delete ban list. Please try again.')).toBeVisible();
    await expect(row).toBeVisible();

    await row.getByRole('button', { name: `Delete spare_list` }).click();
    const held = await holdNext('DELETE', BAN_LIST_PATH);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(dialog.getByRole('button', { name: 'Deleting...' })).toBeDisabled();
    held.release();
    await expect(dialog).toBeHidden();
    await expect(row).toHaveCount(0);
    await expect(success('Ban list spare_list deleted.')).toBeVisible();
  });

  test('Add creates a list under the spare account once its plan has room, saying Adding...', async () => {
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Ban List' });
    await dialog.getByLabel('Account').selectOption({ label: 'Spare Account' });
    await dialog.getByLabel('List Name').fill(listName);
    const held = await holdNext('POST', '/api/cloudflare/banlists');
    await dialog.getByRole('button', { name: 'Add Ban List' }).click();
    await expect(dialog.getByRole('button', { name: 'Adding...' })).toBeDisabled();
    held.release();
    await expect(dialog).toBeHidden();
    await expect(success(`Ban list ${listName} added.`)).toBeVisible();
    const row = rowWith(listName);
    await expect(cells(row).nth(1)).toHaveText('Spare Account');
    await expect(cells(row).nth(5)).toHaveText('ip');
    await expect(cells(row).nth(6)).toHaveText('0');
  });
});

test.describe('Ban List Items of the new list', () => {
  test('opens from the Items count with the list’s name and a way back', async () => {
    await rowWith(listName)
      .getByRole('link', { name: `0 items in ${listName}` })
      .click();
    await expect(page).toHaveURL(/\/cloudflare\/banlists\/[^/]+\/items$/);
    await expect(page.getByRole('heading', { name: listName })).toBeVisible();
    await expect(page.getByText('IP list of Spare Account')).toBeVisible();
    await expect(page.getByText('This list has no items.')).toBeVisible();
    // The spec's columns, and what Guardian adds: when an item expires and who added it.
    await expect(page.getByRole('columnheader')).toHaveText(banListItemsColumns());
  });

  test('Add checks the fields, says Adding..., shows the server’s message and adds items', async () => {
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Item' });
    await dialog.getByRole('button', { name: 'Add Item' }).click();
    await expect(dialog.getByText('IP Address / CIDR is required.')).toBeVisible();
    await expect(dialog.getByText('Comment is required.')).toBeVisible();

    await dialog.getByLabel('IP Address / CIDR').fill('203.0.113.7');
    await dialog.getByLabel('Comment').fill('e2e single address');
    const held = await holdNext('POST', '/items');
    await dialog.getByRole('button', { name: 'Add Item' }).click();
    await expect(dialog.getByRole('button', { name: 'Adding...' })).toBeDisabled();
    held.release();
    await expect(dialog).toBeHidden();
    await expect(rowWith('203.0.113.7')).toBeVisible();

    for (const [ip, comment] of [
      ['198.51.100.0/24', 'e2e range'],
      ['2001:db8::1', 'e2e IPv6 address'],
    ] as const) {
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      await dialog.getByLabel('IP Address / CIDR').fill(ip);
      await dialog.getByLabel('Comment').fill(comment);
      await dialog.getByRole('button', { name: 'Add Item' }).click();
      await expect(dialog).toBeHidden();
    }
    await expect(page.getByText('3 items')).toBeVisible();
    // Newest first.
    await expect(cells(page.getByRole('row').nth(1)).nth(1)).toHaveText('2001:db8::1');
    await expect(cells(page.getByRole('row').nth(3))).toHaveText([
      '3',
      '203.0.113.7',
      'e2e single address',
      /\d/,
      'Never',
      // Who added it (the demo user), through the console.
      /user@guardian\.local/,
      '',
    ]);

    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.getByLabel('IP Address / CIDR').fill('203.0.113.7');
    await dialog.getByLabel('Comment').fill('again');
    await dialog.getByRole('button', { name: 'Add Item' }).click();
    await expect(dialog.getByRole('alert')).toContainText('203.0.113.7 is already in this list');
    await dialog.getByLabel('IP Address / CIDR').fill('not-an-address');
    await dialog.getByRole('button', { name: 'Add Item' }).click();
    await expect(dialog.getByRole('alert')).toContainText('not-an-address');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  test('search filters by IP and comment; sorting asks the server', async () => {
    const search = page.getByPlaceholder('Search IP or Comment...');
    await search.fill('198.51');
    await expect(page.getByText('1 match')).toBeVisible();
    await expect(rowWith('198.51.100.0/24')).toBeVisible();
    await search.fill('IPv6');
    await expect(page.getByText('1 match')).toBeVisible();
    await expect(rowWith('2001:db8::1')).toBeVisible();
    await search.fill('');
    await expect(page.getByText('3 items')).toBeVisible();

    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    await expect(page.getByRole('columnheader', { name: 'Comment' })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    await expect(cells(page.getByRole('row').nth(1)).nth(2)).toHaveText('e2e IPv6 address');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    await expect(cells(page.getByRole('row').nth(1)).nth(2)).toHaveText('e2e single address');
  });

  test('delete asks with the spec’s words and says Deleting...; a failed delete says so', async () => {
    await failNext('DELETE', ITEM_PATH);
    const target = rowWith('203.0.113.7');
    await target.getByRole('button', { name: 'Delete 203.0.113.7' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Item' });
    await expect(dialog).toContainText(
      'Are you sure you want to delete this item? This will remove it from Cloudflare and the local database.',
    );
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(toast('Failed to delete item. Please try again.')).toBeVisible();
    await expect(target).toBeVisible();

    await target.getByRole('button', { name: 'Delete 203.0.113.7' }).click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(target).toBeVisible();

    await target.getByRole('button', { name: 'Delete 203.0.113.7' }).click();
    const held = await holdNext('DELETE', ITEM_PATH);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(dialog.getByRole('button', { name: 'Deleting...' })).toBeDisabled();
    held.release();
    await expect(dialog).toBeHidden();
    await expect(target).toHaveCount(0);
    await expect(page.getByText('2 items')).toBeVisible();
  });

  test('a list that does not exist replaces the page with the spec’s message', async () => {
    await page.goto('/cloudflare/banlists/no-such-list/items');
    await expect(page.getByRole('alert')).toHaveText('Failed to fetch items for list no-such-list.');
    await page.getByRole('link', { name: 'Back to Ban Lists' }).click();
    await expect(page).toHaveURL(/\/cloudflare\/banlists$/);
  });
});

test.describe('the seeded 10,000-item list', () => {
  test('pages through 100 pages of 100 to the last one, searches and sorts on the server', async () => {
    await page.goto('/cloudflare/banlists');
    await page.getByRole('link', { name: '10,000 items in blocked_ips' }).click();
    await expect(page.getByRole('heading', { name: 'blocked_ips' })).toBeVisible();
    await expect(page.getByText('10,000 items')).toBeVisible();
    const pagination = page.getByRole('navigation', { name: 'Pagination' });
    await expect(pagination.getByRole('listitem')).toHaveText(['1', '2', '3', '…', '100']);
    await expect(page.getByRole('row')).toHaveCount(101);
    await expect(cells(page.getByRole('row').nth(1)).first()).toHaveText('1');

    await pagination.getByRole('button', { name: 'Page 2' }).click();
    await expect(cells(page.getByRole('row').nth(1)).first()).toHaveText('101');
    await pagination.getByRole('button', { name: 'Page 100' }).click();
    await expect(currentPage()).toHaveText('100');
    await expect(pagination.getByRole('listitem')).toHaveText(['1', '…', '98', '99', '100']);
    await expect(cells(page.getByRole('row').nth(1)).first()).toHaveText('9901');
    await expect(cells(page.getByRole('row').last()).first()).toHaveText('10000');
    await expect(pagination.getByRole('button', { name: 'Next' })).toBeDisabled();
    await pagination.getByRole('button', { name: 'Previous' }).click();
    await expect(currentPage()).toHaveText('99');
    await expect(pagination.getByRole('listitem')).toHaveText(['1', '…', '97', '98', '99', '100']);

    // 10.0.39.0 to 10.0.39.15 are the seeded addresses starting with 10.0.39.; the search goes to page 1.
    await page.getByPlaceholder('Search IP or Comment...').fill('10.0.39.');
    await expect(page.getByText('16 matches')).toBeVisible();
    await expect(page.getByRole('row')).toHaveCount(17);
    await expect(pagination).toHaveCount(0);
    await page.getByPlaceholder('Search IP or Comment...').fill('');
    await expect(page.getByText('10,000 items')).toBeVisible();
    await expect(currentPage()).toHaveText('1');

    await page.getByRole('button', { name: 'IP Address', exact: true }).click();
    await expect(page.getByRole('columnheader', { name: 'IP Address' })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    await expect(cells(page.getByRole('row').nth(1)).nth(1)).toHaveText('10.0.0.0');
  });
});
