import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { signIn } from './support/session';
import { DEMO_USER } from './support/stack';

/** Where the screens are photographed at 1366 and 390 px (SHOTS_DIR, else Playwright's results). */
const SHOTS = process.env.SHOTS_DIR ?? 'test-results';

test('a person registers a server, copies its install step, sees it turn active after its first ban, and revokes it', async ({
  page,
  request,
  context,
}) => {
  mkdirSync(SHOTS, { recursive: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page, DEMO_USER);

  await page.goto('/servers/groups');
  await expect(page.getByRole('heading', { name: 'Server Groups' })).toBeVisible();
  await page.getByRole('button', { name: 'Create Group' }).click();
  const groupDialog = page.getByRole('dialog', { name: 'Create Server Group' });
  await groupDialog.getByLabel('Name').fill('e2e hosts');
  // A clear message before anything is sent: no list chosen.
  await groupDialog.getByRole('button', { name: 'Create Group' }).click();
  await expect(groupDialog.getByText('Choose at least one list for the bans.')).toBeVisible();
  await groupDialog.getByLabel('acme_bad_actors (Acme Security)').check();
  await groupDialog.getByLabel('Allowlist: never banned').fill('192.0.2.0/24');
  await groupDialog.getByRole('button', { name: 'Create Group' }).click();
  await expect(groupDialog).toBeHidden();
  const groupRow = page.getByRole('row').filter({ hasText: 'e2e hosts' });
  await expect(groupRow).toContainText('acme_bad_actors (Acme Security)');
  await page.screenshot({ path: `${SHOTS}/server-groups-1366.png`, fullPage: true });

  await page.goto('/servers/list');
  await expect(page.getByRole('heading', { name: 'Server List' })).toBeVisible();
  await page.getByRole('button', { name: 'Register Server' }).click();
  const register = page.getByRole('dialog', { name: 'Register Server' });
  await register.getByLabel('Name').fill('e2e-web');
  await register.getByLabel('Group').selectOption({ label: 'e2e hosts' });
  await register.getByLabel('Integration').selectOption({ label: 'fail2ban' });
  await register.getByRole('button', { name: 'Register' }).click();
  const shown = page.getByRole('dialog', { name: 'Server "e2e-web" registered' });
  const key = (await shown.getByLabel('Server key').textContent())!.trim();
  expect(key).toMatch(/^gs_\d+_[A-Za-z0-9_-]{43}$/);
  await expect(shown.getByLabel('Install step')).toContainText(
    `printf '%s\\n' '${key}' > /etc/fail2ban/guardian/key`,
  );
  await shown.getByRole('button', { name: 'Copy install step' }).click();
  await expect(page.getByText('Install step copied.')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('install -m 0755 guardian.py /etc/fail2ban/action.d/guardian.py');
  expect(copied).toContain(key);
  await page.screenshot({ path: `${SHOTS}/server-registered-1366.png` });
  await shown.getByRole('button', { name: 'Done' }).click();

  const row = page.getByRole('row').filter({ hasText: 'e2e-web' });
  await expect(row).toContainText('Silent');
  await expect(row).toContainText('Never');
  await expect(page.getByText(key)).toHaveCount(0);

  // The server's first ban, with its key and nothing else.
  const banned = await request.post('/api/server-api/ban', {
    headers: { authorization: `Bearer ${key}` },
    data: { address: '198.51.100.201', jail: 'sshd', reason: 'e2e' },
  });
  expect(banned.status()).toBe(202);
  const refused = await request.post('/api/server-api/ban', {
    headers: { authorization: `Bearer ${key}` },
    data: { address: '192.0.2.7' },
  });
  expect(refused.status()).toBe(403);
  await page.reload();
  await expect(row).toContainText('Active');
  await expect(row.getByRole('cell').nth(3)).toHaveText('1 / 1');
  await expect(row).toContainText('Last: allowlist: 192.0.2.7 is within 192.0.2.0/24');
  await page.screenshot({ path: `${SHOTS}/server-list-1366.png`, fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/server-list-390.png`, fullPage: true });
  await page.goto('/servers/integrations');
  await expect(page.getByRole('heading', { name: 'Integrations' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/server-integrations-390.png`, fullPage: true });
  await page.goto('/servers/list');

  await row.getByRole('button', { name: 'Revoke server e2e-web' }).click();
  await page
    .getByRole('dialog', { name: 'Revoke Server Key' })
    .getByRole('button', { name: 'Revoke' })
    .click();
  await expect(row).toContainText('Revoked');
  const after = await request.post('/api/server-api/heartbeat', {
    headers: { authorization: `Bearer ${key}` },
    data: {},
  });
  expect(after.status()).toBe(401);
  await page.screenshot({ path: `${SHOTS}/server-revoked-390.png`, fullPage: true });
});
