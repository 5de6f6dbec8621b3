import { expect, test } from '@playwright/test';
import { signIn } from './support/session';
import { DEMO_USER } from './support/stack';

test('a person makes a ban key on their profile, and a script bans an address with it', async ({
  page,
  request,
}) => {
  await signIn(page, DEMO_USER);
  await page.goto('/cloudflare/banlists');
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: 'office_allowlist', exact: true }) });
  const listId = (await row.getByRole('cell').nth(4).textContent())!.trim();

  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
  await page.getByRole('button', { name: 'Create Key' }).click();
  const create = page.getByRole('dialog', { name: 'Create API Key' });
  await create.getByLabel('Name').fill('e2e script');
  await create.getByLabel(/Limit to lists/).selectOption({ label: 'office_allowlist (Guardian Demo)' });
  await create.getByRole('button', { name: 'Create Key' }).click();
  const shown = page.getByRole('dialog', { name: 'API key "e2e script"' });
  const key = (await shown.getByLabel('New API key').textContent())!.trim();
  expect(key).toMatch(/^gk_\d+_/);
  await page.screenshot({ path: 'test-results/api-key-shown.png' });
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('list', { name: 'API keys' })).toContainText(`…${key.slice(-4)}`);
  await expect(page.getByText(key)).toHaveCount(0);

  // The script: no session, only the key.
  const banned = await request.post(`/api/cloudflare/banlists/${listId}/items`, {
    headers: { authorization: `Bearer ${key}` },
    data: { ip: '198.51.100.123', comment: 'banned by an e2e script' },
  });
  expect(banned.status()).toBe(201);
  const refused = await request.post('/api/cloudflare/banlists/clean', {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(refused.status()).toBe(403);

  await page.goto('/dashboard/activity');
  await expect(
    page
      .getByRole('list', { name: 'Activity' })
      .getByRole('listitem')
      .filter({ hasText: 'ip=198.51.100.123' })
      .first(),
  ).toContainText('POST /api/cloudflare/banlists/{list_id}/items');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/profile');
  await expect(page.getByRole('list', { name: 'API keys' })).toBeVisible();
  await page.screenshot({ path: 'test-results/profile-phone.png', fullPage: true });
});
