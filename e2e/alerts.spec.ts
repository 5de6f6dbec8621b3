import { expect, test, type Page } from '@playwright/test';
import { changeAtCloudflare, sandboxControl } from './support/sandbox';
import { shareSignedInPage } from './support/session';
import { DEMO_USER, SANDBOX_TOKENS } from './support/stack';

// Issue 38: an alert raised by its real cause. Cloudflare (the sandbox) holds a list Guardian does not
// know of that fills Acme Security's Pro plan (10,000 items), so adding an address to acme_bad_actors
// is refused by Cloudflare: the alert names it, the top bar counts it, and the person acknowledges it.
const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots/alerts';
const ACME_TOKEN = SANDBOX_TOKENS[1]!;
const REFUSED_IP = '198.51.100.201';

let page: Page;
shareSignedInPage(DEMO_USER, (signedIn) => (page = signedIn), { viewport: { width: 1366, height: 900 } });

let acmeId = '';
let fillerId = '';

test.beforeAll(async () => {
  const accounts = await sandboxControl<{ id: string; name: string }[]>('GET', '/accounts');
  acmeId = accounts.find((account) => account.name === 'Acme Security')!.id;
  fillerId = (await sandboxControl('POST', `/accounts/${acmeId}/lists`, { name: 'e2e_filler', kind: 'ip' }))
    .id;
  // 150 items in acme_bad_actors + 9,850 here: the account's 10,000.
  const items = Array.from({ length: 9_850 }, (_, index) => ({ ip: `10.77.${index >> 8}.${index & 255}` }));
  await sandboxControl('POST', `/accounts/${acmeId}/lists/${fillerId}/items`, items);
});

test.afterAll(async () => {
  // The other specs find Acme Security as the demo seeded it.
  if (acmeId && fillerId)
    await changeAtCloudflare(ACME_TOKEN, 'DELETE', `/accounts/${acmeId}/rules/lists/${fillerId}`);
});

test('a ban Cloudflare refused raises an alert the top bar counts; the person acknowledges it', async () => {
  await page.goto('/cloudflare/banlists');
  await page.getByRole('link', { name: /items in acme_bad_actors$/ }).click();
  await expect(page.getByRole('heading', { name: 'acme_bad_actors' })).toBeVisible();
  const before = await page.getByRole('link', { name: /^Alerts, / }).getAttribute('aria-label');

  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Item' });
  await dialog.getByLabel('IP Address / CIDR').fill(REFUSED_IP);
  await dialog.getByLabel('Comment').fill('e2e refused ban');
  await dialog.getByRole('button', { name: 'Add Item' }).click();
  await expect(dialog.getByText(/maximum number of items/)).toBeVisible({ timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // The count is read again within the bell's poll; a reload reads it at once.
  await page.reload();
  const count = page.getByRole('link', { name: /^Alerts, \d+ open$/ });
  await expect(count).toBeVisible();
  expect(await count.getAttribute('aria-label')).not.toBe(before);
  await count.click();
  await expect(page).toHaveURL(/\/dashboard\/alerts$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Alerts' })).toBeVisible();

  const alert = page
    .getByRole('listitem')
    .filter({ hasText: `${REFUSED_IP} was not added to acme_bad_actors` });
  await expect(alert).toContainText('A ban was not applied');
  await expect(alert).toContainText('Open');
  await expect(alert.getByRole('link', { name: 'List acme_bad_actors' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/alerts-1366.png`, fullPage: true });

  const open = Number(/Alerts, (\d+) open/.exec((await count.getAttribute('aria-label')) ?? '')?.[1]);
  await alert.getByRole('button', { name: /^Acknowledge: / }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Alert acknowledged.' })).toBeVisible();
  await expect(alert).toContainText('Acknowledged');
  await expect(alert.getByRole('button', { name: /^Acknowledge: / })).toHaveCount(0);
  await expect(
    page.getByRole('link', { name: open > 1 ? `Alerts, ${open - 1} open` : 'Alerts, none open' }),
  ).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/alerts-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1366, height: 900 });
});
