import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { listsHoldingTheSearch } from './support/ip-lists';
import { shareSignedInPage } from './support/session';
import { DEMO_USER } from './support/stack';

// Reads the demo's seeded lists only: blocked_ips (10,000 items from 10.0.0.0, Guardian Demo),
// office_allowlist (198.51.100.10 and .11, 203.0.113.0/24, 2001:db8::/48), acme_bad_actors
// (192.0.2.1 to 192.0.2.150, Acme Security). Issue 15: "Where is this address?" and Export.
const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots/ip-search';

let page: Page;
shareSignedInPage(DEMO_USER, (signedIn) => (page = signedIn), { viewport: { width: 1280, height: 800 } });

const box = () => page.getByLabel('IP address, CIDR, hostname or AS number');
const resultRows = () => listsHoldingTheSearch(page);

async function searchFor(q: string) {
  await box().fill(q);
  await box().press('Enter');
  await expect(page).toHaveURL(new RegExp(`/cloudflare/ips\\?q=${encodeURIComponent(q)}$`));
}

test('the sidebar IP Lists page finds an address in the seeded lists', async () => {
  await page.goto('/dashboard');
  // The sidebar opens one group at a time: Dashboard's here.
  await page.getByRole('button', { name: 'Cloudflare' }).click();
  await page.getByRole('link', { name: 'IP Lists' }).click();
  await expect(page.getByRole('heading', { name: 'IP Lists' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/empty-1280.png` });

  await searchFor('10.0.1.5');
  await expect(resultRows()).toHaveCount(1);
  const row = resultRows().first();
  await expect(row).toContainText('Guardian Demo');
  await expect(row).toContainText('blocked_ips');
  await expect(row).toContainText('10.0.1.5');
  await expect(row).toContainText('Exact');
  await expect(page.getByText('1 match for 10.0.1.5 in 1 list')).toBeVisible();

  // An address inside a CIDR of another list.
  await searchFor('203.0.113.9');
  await expect(resultRows()).toHaveCount(1);
  await expect(resultRows().first()).toContainText('office_allowlist');
  await expect(resultRows().first()).toContainText('203.0.113.0/24');
  await expect(resultRows().first()).toContainText('Holds it');
  await expect(resultRows().first()).toContainText('VPN range');

  // A CIDR across the other account's list: every item inside it, 100 a page.
  await searchFor('192.0.2.0/24');
  await expect(page.getByText('150 matches for 192.0.2.0/24 in 1 list')).toBeVisible();
  await expect(resultRows()).toHaveCount(100);
  await expect(resultRows().first()).toContainText('Acme Security');
  await expect(resultRows().first()).toContainText('acme_bad_actors');
  await page.getByRole('navigation', { name: 'Pagination' }).getByRole('button', { name: 'Page 2' }).click();
  await expect(resultRows()).toHaveCount(50);
  await expect(resultRows().first()).toContainText('acme_bad_actors');

  // Other specs add addresses of this range to lists of their own (and to this one): the seeded two
  // are found, in address order.
  await searchFor('198.51.100.0/24');
  const office = resultRows().filter({ hasText: 'office_allowlist' });
  await expect(office.nth(0)).toContainText('198.51.100.10');
  await expect(office.nth(1)).toContainText('198.51.100.11');
  // The answer names each list once, over its matches: a list's rows come together.
  const listOfRow = await resultRows().getByRole('link').allTextContents();
  expect(listOfRow.filter((name, i) => name !== listOfRow[i - 1])).toEqual([...new Set(listOfRow)]);
  await page.screenshot({ path: `${SHOTS}/results-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/results-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // A bad search says why, under the box.
  await searchFor('10.0.0.256');
  await expect(page.getByRole('alert')).toHaveText(
    '"10.0.0.256" is not a valid IPv4 or IPv6 address or CIDR.',
  );
  await expect(box()).toHaveAttribute('aria-invalid', 'true');

  // A match links to its list.
  await searchFor('198.51.100.10');
  await resultRows().first().getByRole('link', { name: 'office_allowlist' }).click();
  await expect(page.getByRole('heading', { name: 'office_allowlist' })).toBeVisible();
});

test('Export downloads the list as CSV and a search as TXT', async () => {
  await page.goto('/cloudflare/banlists');
  await page.getByRole('link', { name: '10,000 items in blocked_ips' }).click();
  await expect(page.getByRole('heading', { name: 'blocked_ips' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Update from Cloudflare' })).toBeVisible();

  await page.getByRole('button', { name: 'Export' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export Items' });
  await expect(dialog).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/export-dialog-1280.png` });
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(csv.suggestedFilename()).toBe('blocked_ips.csv');
  const csvLines = (await readFile((await csv.path())!, 'utf8')).split('\r\n');
  expect(csvLines[0]).toBe('value,comment,expires,added_by,added_at');
  expect(csvLines[1]).toMatch(/^10\.0\.0\.0,SSH brute force #1,never,[^,]*,\d{4}-\d\d-\d\dT[\d:.]+Z$/);
  expect(csvLines[2]).toMatch(/^10\.0\.0\.1,Credential stuffing #2,/);
  expect(csvLines.filter(Boolean)).toHaveLength(10_001);
  await expect(page.getByText('blocked_ips.csv downloaded.')).toBeVisible();

  await page.getByPlaceholder('Search IP or Comment...').fill('10.0.39.');
  await expect(page.getByText('16 matches')).toBeVisible();
  await page.getByRole('button', { name: 'Export' }).click();
  await expect(dialog.getByRole('radio', { name: /matches of the search/ })).toBeChecked();
  await dialog.getByRole('radio', { name: /^TXT/ }).check();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/export-dialog-390.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
  const [txt] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(txt.suggestedFilename()).toBe('blocked_ips-search.txt');
  const values = (await readFile((await txt.path())!, 'utf8')).split('\n').filter(Boolean);
  expect(values).toHaveLength(16);
  expect(values[0]).toBe('10.0.39.0');
  expect(values.every((value) => value.startsWith('10.0.39.'))).toBe(true);
});
