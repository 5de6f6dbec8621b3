import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
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

test('a reviewed group holds a signed webhook ban until the person approves it on the Server List', async ({
  page,
  request,
}) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page, DEMO_USER);

  await page.goto('/servers/groups');
  await page.getByRole('button', { name: 'Create Group' }).click();
  const groupDialog = page.getByRole('dialog', { name: 'Create Server Group' });
  await groupDialog.getByLabel('Name').fill('e2e reviewed');
  await groupDialog.getByLabel('acme_bad_actors (Acme Security)').check();
  await groupDialog.getByLabel(/^Review: bans wait/).check();
  await groupDialog.getByRole('button', { name: 'Create Group' }).click();
  await expect(groupDialog).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: 'e2e reviewed' })).toContainText('Reviewed');

  await page.goto('/servers/list');
  await page.getByRole('button', { name: 'Register Server' }).click();
  const register = page.getByRole('dialog', { name: 'Register Server' });
  await register.getByLabel('Name').fill('e2e-soar');
  await register.getByLabel('Group').selectOption({ label: 'e2e reviewed' });
  await register.getByLabel('Integration').selectOption({ label: 'Signed webhook' });
  await register.getByRole('button', { name: 'Register' }).click();
  const shown = page.getByRole('dialog', { name: 'Server "e2e-soar" registered' });
  const secret = (await shown.getByLabel('Signing secret').textContent())!.trim();
  const key = (await shown.getByLabel('Server key').textContent())!.trim();
  expect(secret).toMatch(/^whsec_/);
  const step = shown.getByLabel('Install step');
  await expect(step).toContainText(`printf '%s\\n' '${secret}' > ~/.config/guardian/signing-secret`);
  const serverId = /\/api\/server-api\/webhook\/(\d+)/.exec((await step.textContent())!)![1]!;
  await page.screenshot({ path: `${SHOTS}/server-webhook-registered-1366.png` });
  await shown.getByRole('button', { name: 'Done' }).click();

  // A SOAR tool's signed call: held for review, not at Cloudflare.
  const payload = JSON.stringify({ type: 'ban', address: '198.51.100.222', reason: 'soar' });
  const id = `msg_e2e_${Date.now()}`;
  const at = new Date();
  const signed = await request.post(`/api/server-api/webhook/${serverId}`, {
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(id, at, payload),
    },
    data: payload,
  });
  expect(signed.status()).toBe(202);
  expect((await signed.json()).state).toBe('review');

  await page.reload();
  const queue = page.getByRole('region', { name: 'Waiting for review (1)' });
  await expect(queue).toBeVisible();
  const waiting = queue.getByRole('row').filter({ hasText: '198.51.100.222' });
  await expect(waiting).toContainText('e2e-soar');
  await page.screenshot({ path: `${SHOTS}/server-review-1366.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/server-review-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1366, height: 900 });

  await waiting.getByRole('button', { name: 'Approve the ban of 198.51.100.222' }).click();
  await expect(page.getByText('1 ban approved.')).toBeVisible();
  await expect(queue).toBeHidden();
  // Approved: queued like any ban, and taken by Cloudflare (nothing of the server's left pending).
  await expect
    .poll(
      async () =>
        (
          await (
            await request.post('/api/server-api/heartbeat', {
              headers: { authorization: `Bearer ${key}` },
              data: {},
            })
          ).json()
        ).pending,
      { timeout: 20_000 },
    )
    .toBe(0);
});
