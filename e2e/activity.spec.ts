import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { signIn } from './support/session';
import { DEMO_ADMIN, DEMO_USER } from './support/stack';

test('a change shows in the person’s Activity, in everyone’s for the administrator, and in the CSV export', async ({
  page,
  browser,
}) => {
  await signIn(page, DEMO_USER);
  await page.goto('/cloudflare/banlists');
  await page.getByRole('link', { name: /items in office_allowlist$/ }).click();
  // On the list's page before Add: the Ban Lists page has an Add button of its own.
  await expect(page.getByRole('heading', { name: 'office_allowlist' })).toBeVisible();
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Item' });
  await dialog.getByLabel('IP Address / CIDR').fill('203.0.113.77');
  await dialog.getByLabel('Comment').fill('e2e activity');
  await dialog.getByRole('button', { name: 'Add Item' }).click();
  await expect(dialog).toBeHidden();

  // Removed again: the trail names the address it removed, not the item's id.
  const row = page.getByRole('row').filter({ hasText: '203.0.113.77' });
  await row.getByRole('button', { name: 'Delete 203.0.113.77' }).click();
  await page.getByRole('dialog', { name: 'Delete Item' }).getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);

  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/dashboard/activity');
  const trail = page.getByRole('list', { name: 'Activity' });
  // Who removed 203.0.113.77? The search asks the server for the events whose words hold it.
  await page.getByRole('searchbox', { name: 'Search' }).fill('203.0.113.77');
  const events = trail.getByRole('listitem');
  await expect(events).toHaveCount(2);
  await expect(events.nth(0)).toContainText(
    `${DEMO_USER.email} removed 203.0.113.77 from office_allowlist (account `,
  );
  await expect(events.nth(1)).toContainText(`${DEMO_USER.email} added 203.0.113.77 to office_allowlist`);
  await expect(events.nth(0)).toContainText('Done');
  await expect(events.nth(0)).toContainText('From ');
  // The request itself is still there, under Details.
  await events.nth(1).getByText('Details').click();
  await expect(events.nth(1)).toContainText('POST /api/cloudflare/banlists/{list_id}/items');
  await page.screenshot({ path: 'test-results/activity-search-1366.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(events).toHaveCount(2);
  await page.screenshot({ path: 'test-results/activity-search-390.png', fullPage: true });
  await page.setViewportSize({ width: 1366, height: 900 });

  await page.getByRole('searchbox', { name: 'Search' }).fill('');
  await page.getByLabel('Kind').selectOption('Sign-ins');
  await expect(trail.getByRole('listitem').first()).toContainText(`${DEMO_USER.email} signed in`);
  await page.screenshot({ path: 'test-results/activity-user.png', fullPage: true });

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = readFileSync((await (await download).path())!, 'utf8');
  expect(csv.split('\n')[0]).toBe(
    'id,at,actor,address,action,request,account_id,zone_id,outcome,status,message,summary,target',
  );
  expect(csv).toContain('auth.login');
  expect(csv).not.toContain('banListItems.add');

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO_ADMIN);
  await admin.getByRole('link', { name: 'Activity' }).click();
  await expect(admin).toHaveURL(/\/admin\/activity$/);
  await admin.getByLabel('Person').fill(DEMO_USER.email);
  await expect(
    admin
      .getByRole('list', { name: 'Activity' })
      .getByRole('listitem')
      .filter({ hasText: `${DEMO_USER.email} added 203.0.113.77` })
      .first(),
  ).toBeVisible();
  await admin.setViewportSize({ width: 390, height: 844 });
  await admin.screenshot({ path: 'test-results/activity-admin-phone.png', fullPage: true });
  await adminContext.close();
});
