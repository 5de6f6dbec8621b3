import { expect, test, type Locator, type Page } from '@playwright/test';
import { shareSignedInPage } from './support/session';
import { DEMO_USER } from './support/stack';

// Reads the seeded lists only (blocked_ips: 10,000 items 10.0.0.0 to 10.0.39.15, every sixth a
// "Scraper"; office_allowlist: two addresses, an IPv4 and an IPv6 range, and what other specs add to it,
// so its checks are about order, not count). Issue 18 items 1 and 9.
const SHOTS = '/tmp/shots/items';

let page: Page;
shareSignedInPage(DEMO_USER, (signedIn) => (page = signedIn), { viewport: { width: 1366, height: 800 } });

const cells = (row: Locator) => row.getByRole('cell');
const pagination = () => page.getByRole('navigation', { name: 'Pagination' });
const searchBox = () => page.getByPlaceholder('Search IP or Comment...');
/** The IP Address cells of the first `count` rows. */
const addresses = async (count: number) => {
  const rows = page.getByRole('row');
  return Promise.all(
    Array.from({ length: count }, (_, index) =>
      cells(rows.nth(index + 1))
        .nth(1)
        .textContent(),
    ),
  );
};

/** Opens a seeded list; `items` is its count when no other spec writes to it. */
async function openList(name: string, items?: string) {
  await page.goto('/cloudflare/banlists');
  await page
    .getByRole('link', { name: items ? `${items} items in ${name}` : new RegExp(`items in ${name}$`) })
    .click();
  await expect(page.getByRole('heading', { name })).toBeVisible();
  if (items) await expect(page.getByText(`${items} items`)).toBeVisible();
}

test('a broad search shows its exact total and its last page once counted', async () => {
  await openList('blocked_ips', '10,000');
  const counted = page.waitForResponse(
    (response) => new URL(response.url()).pathname.endsWith('/items/count') && response.ok(),
  );
  await searchBox().fill('Scraper');
  const count = await counted;
  expect(new URL(count.url()).searchParams.get('search')).toBe('Scraper');
  expect(await count.json()).toEqual({ totalItems: 1667 });
  await expect(page.getByText('1,667 matches')).toBeVisible();
  await expect(page.getByText(/More than/)).toHaveCount(0);
  await expect(pagination().getByRole('listitem')).toHaveText(['1', '2', '3', '…', '17']);
  await page.screenshot({ path: `${SHOTS}/search-total.png` });

  await pagination().getByRole('button', { name: 'Page 17' }).click();
  await expect(pagination().locator('[aria-current="page"]')).toHaveText('17');
  await expect(pagination().getByRole('listitem')).toHaveText(['1', '…', '15', '16', '17']);
  // 1,667 matches: 16 pages of 100, then 67.
  await expect(page.getByRole('row')).toHaveCount(68);
  await expect(cells(page.getByRole('row').last()).first()).toHaveText('1667');
  await expect(page.getByText('1,667 matches')).toBeVisible();

  // Every address starts with 10.0.: the whole list matches, and counts as exactly.
  await searchBox().fill('10.0.');
  await expect(page.getByText('10,000 matches')).toBeVisible();
  await expect(pagination().locator('[aria-current="page"]')).toHaveText('1');
  await expect(pagination().getByRole('listitem')).toHaveText(['1', '2', '3', '…', '100']);
  await expect(page.getByText(/More than/)).toHaveCount(0);
});

test('the IP Address column sorts addresses as addresses', async () => {
  await openList('blocked_ips', '10,000');
  const header = page.getByRole('columnheader', { name: 'IP Address' });
  await page.getByRole('button', { name: 'IP Address', exact: true }).click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  // As text, 10.0.0.10 would come before 10.0.0.2.
  await expect(cells(page.getByRole('row').nth(3)).nth(1)).toHaveText('10.0.0.2');
  expect(await addresses(4)).toEqual(['10.0.0.0', '10.0.0.1', '10.0.0.2', '10.0.0.3']);
  await page.screenshot({ path: `${SHOTS}/ip-order.png` });
  await page.getByRole('button', { name: 'IP Address', exact: true }).click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  // As text, 10.0.9.99 would come first.
  await expect(cells(page.getByRole('row').nth(1)).nth(1)).toHaveText('10.0.39.15');
  expect(await addresses(3)).toEqual(['10.0.39.15', '10.0.39.14', '10.0.39.13']);

  // IPv4 before IPv6, a range by its network address.
  await openList('office_allowlist');
  await page.getByRole('button', { name: 'IP Address', exact: true }).click();
  const rows = page.getByRole('row');
  await expect(cells(rows.last()).nth(1)).toHaveText('2001:db8::/48');
  const shown = await addresses((await rows.count()) - 1);
  const seeded = ['198.51.100.10', '198.51.100.11', '203.0.113.0/24', '2001:db8::/48'];
  expect(shown.filter((address) => seeded.includes(address ?? ''))).toEqual(seeded);
});
