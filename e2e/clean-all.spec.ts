import { expect, test, type Route } from '@playwright/test';
import { signIn } from './support/session';
import { DEMO_USER } from './support/stack';

// Clean All empties every list of the demo user, the seeded 10,000-item blocked_ips included: this file
// is its own project in playwright.config.ts, which depends on every other spec file's project, so it
// runs after them and none of them finds its lists emptied.

/** A temporary ban of the demo user's own: Restore must bring it back as it was (issue 35 item 1). */
const TEMPORARY = { ip: '198.51.100.77', comment: 'temporary ban (e2e)' };

test('Clean All asks with the spec’s words, says a failure, then empties every list', async ({ page }) => {
  await signIn(page, DEMO_USER);
  await page.goto('/cloudflare/banlists');
  const blocked = page
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: 'blocked_ips', exact: true }) });
  await blocked.getByRole('link', { name: '10,000 items in blocked_ips' }).click();
  // On the list's page before Add: the Ban Lists page has an Add button of its own.
  await expect(page.getByRole('heading', { name: 'blocked_ips' })).toBeVisible();
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const add = page.getByRole('dialog', { name: 'Add Item' });
  await add.getByLabel('IP Address / CIDR').fill(TEMPORARY.ip);
  await add.getByLabel('Comment').fill(TEMPORARY.comment);
  await add.getByLabel('Expires').selectOption('7d');
  await add.getByRole('button', { name: 'Add Item' }).click();
  await expect(add).toBeHidden();
  await page.goto('/cloudflare/banlists');
  await expect(blocked.getByRole('link', { name: '10,001 items in blocked_ips' })).toBeVisible();

  const cleanAll = page.getByRole('button', { name: 'Clean All' });
  const dialog = page.getByRole('dialog', { name: 'Clean All Ban Lists' });
  const question =
    'Are you sure you want to clean all items from all ban lists? This action is irreversible.';
  // Then what Restore brings back and for how long: the demo keeps snapshots the default 168 hours.
  const restoreNote =
    'Guardian keeps a copy for 7 days (your 50 most recent copies): Restore brings the items back with their comments, expiry and who added them';

  let cleans = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/api/cloudflare/banlists/clean')) cleans++;
  });
  await cleanAll.click();
  await expect(dialog).toContainText(question);
  await expect(dialog).toContainText(restoreNote);
  await page.screenshot({ path: 'test-results/clean-all-confirm.png' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(cleans).toBe(0);

  await page.route('**/api/cloudflare/banlists/clean', (route) =>
    route.fulfill({
      status: 502,
      contentType: 'application/json',
      body: JSON.stringify({
        code: 'UPSTREAM',
        message: 'Cloudflare is down',
        errors: [{ message: 'Cloudflare is down' }],
      }),
    }),
  );
  await cleanAll.click();
  await dialog.getByRole('button', { name: 'Clean All' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Failed to clean all ban lists. Please try again.' }),
  ).toBeVisible();
  await page.unrouteAll({ behavior: 'wait' });

  // Held for a moment so the busy label can be seen.
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/cloudflare/banlists/clean', async (route: Route) => {
    await released;
    await route.fallback();
  });
  await cleanAll.click();
  await expect(dialog).toContainText(question);
  await dialog.getByRole('button', { name: 'Clean All' }).click();
  await expect(dialog.getByRole('button', { name: 'Deleting...' })).toBeDisabled();
  release();
  await expect(dialog).toBeHidden({ timeout: 60_000 });
  await expect(page.getByRole('status').filter({ hasText: 'All ban lists cleaned.' })).toBeVisible();

  const itemCounts = page.getByRole('link', { name: /^\d[\d,]* items in / });
  await expect(itemCounts.first()).toBeVisible();
  for (const count of await itemCounts.allTextContents()) expect(count).toBe('0');

  await blocked.getByRole('link', { name: '0 items in blocked_ips' }).click();
  await expect(page.getByRole('heading', { name: 'blocked_ips' })).toBeVisible();
  await expect(page.getByText('This list has no items.')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Pagination' })).toHaveCount(0);
});

test('what Clean All removed is restored from the Ban Lists page, every item back as it was', async ({
  page,
}) => {
  await signIn(page, DEMO_USER);
  await page.goto('/cloudflare/banlists');
  const panel = page.getByRole('region', { name: 'Recently removed' });
  const snapshot = panel
    .getByRole('listitem')
    .filter({ hasText: /^Clean All: \d+ lists?, [\d,]+ items/ })
    .first();
  await expect(snapshot).toContainText('can be restored until');
  await page.screenshot({ path: 'test-results/restore-clean-all-before.png', fullPage: true });

  await snapshot.getByRole('button', { name: /^Restore Clean All/ }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Restored: Clean All/ })).toBeVisible({
    timeout: 60_000,
  });
  await expect(snapshot.getByText('Restored', { exact: true })).toBeVisible();
  const blocked = page
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: 'blocked_ips', exact: true }) });
  await expect(blocked.getByRole('link', { name: '10,001 items in blocked_ips' })).toBeVisible();
  await page.screenshot({ path: 'test-results/restore-clean-all-after.png', fullPage: true });

  await blocked.getByRole('link', { name: '10,001 items in blocked_ips' }).click();
  await expect(page.getByRole('heading', { name: 'blocked_ips' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Pagination' })).toBeVisible();

  // The temporary ban is back with its comment, its expiry and who added it, and its history says
  // who restored it.
  await page.getByLabel('Search items').fill(TEMPORARY.ip);
  const row = page.getByRole('row').filter({ hasText: TEMPORARY.ip });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(TEMPORARY.comment);
  await expect(row).toContainText(DEMO_USER.email);
  await expect(row).not.toContainText('Never');
  await row.getByRole('button', { name: `Details of ${TEMPORARY.ip}` }).click();
  const history = page.getByRole('dialog', { name: 'Item Details' }).getByRole('region', { name: 'History' });
  await expect(history.getByRole('listitem')).toHaveText([
    new RegExp(`Added by ${DEMO_USER.email} through the console; expires `),
    new RegExp(`Restored by ${DEMO_USER.email}; expires `),
  ]);
  await page.screenshot({ path: 'test-results/restore-clean-all-item.png' });
});
