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
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Item' });
  await dialog.getByLabel('IP Address / CIDR').fill('203.0.113.77');
  await dialog.getByLabel('Comment').fill('e2e activity');
  await dialog.getByRole('button', { name: 'Add Item' }).click();
  await expect(dialog).toBeHidden();

  await page.goto('/dashboard/activity');
  const trail = page.getByRole('list', { name: 'Activity' });
  const added = trail.getByRole('listitem').filter({ hasText: 'ip=203.0.113.77' }).first();
  await expect(added).toContainText('POST /api/cloudflare/banlists/{list_id}/items');
  await expect(added).toContainText('Done');
  await page.getByLabel('Kind').selectOption('Sign-ins');
  await expect(trail.getByRole('listitem').first()).toContainText('POST /api/login');
  await page.screenshot({ path: 'test-results/activity-user.png', fullPage: true });

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = readFileSync((await (await download).path())!, 'utf8');
  expect(csv.split('\n')[0]).toBe(
    'id,at,actor,address,action,request,account_id,zone_id,outcome,status,message,target',
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
      .filter({ hasText: 'ip=203.0.113.77' })
      .first(),
  ).toContainText(DEMO_USER.email);
  await admin.setViewportSize({ width: 390, height: 844 });
  await admin.screenshot({ path: 'test-results/activity-admin-phone.png', fullPage: true });
  await adminContext.close();
});
