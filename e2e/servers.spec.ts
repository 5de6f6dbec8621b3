import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { createServerGroup, GROUP_LIST, registerServer } from './support/servers';
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
  await groupDialog.getByLabel(GROUP_LIST).check();
  await groupDialog.getByLabel('Allowlist: never banned').fill('192.0.2.0/24');
  await groupDialog.getByRole('button', { name: 'Create Group' }).click();
  await expect(groupDialog).toBeHidden();
  const groupRow = page.getByRole('row').filter({ hasText: 'e2e hosts' });
  await expect(groupRow).toContainText(GROUP_LIST);
  await page.screenshot({ path: `${SHOTS}/server-groups-1366.png`, fullPage: true });

  const shown = await registerServer(page, { name: 'e2e-web', group: 'e2e hosts', integration: 'fail2ban' });
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
  // Its small chart of the last 24 hours: drawn, and nothing sent yet.
  await expect(
    row.getByRole('img', { name: 'e2e-web, last 24 hours: bans 0, unbans 0, refused 0' }),
  ).toBeVisible();
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
  await expect(row.getByRole('cell').nth(3)).toContainText('Bans 1 / 1Unbans 0 / 0Refused 1 / 1');
  await expect(row).toContainText('Last: allowlist: 192.0.2.7 is within 192.0.2.0/24');
  // The first ban and the refusal are in the chart's hour now begun, and in its table.
  await expect(
    row.getByRole('img', { name: 'e2e-web, last 24 hours: bans 1, unbans 0, refused 1' }),
  ).toBeVisible();
  await row.getByRole('button', { name: 'Show e2e-web, last 24 hours as table' }).click();
  const hoursDialog = page.getByRole('dialog', { name: 'e2e-web, last 24 hours' });
  const hours = hoursDialog.getByRole('table', { name: /^e2e-web, last 24 hours \(times in / });
  await expect(hours.getByRole('row')).toHaveCount(25);
  // The ban and the refusal in the last hour's row, or across the last two when an hour began between them.
  const rows = hours.getByRole('row');
  const [before, last] = await Promise.all(
    [23, 24].map(async (at) => (await rows.nth(at).getByRole('cell').allTextContents()).map(Number)),
  );
  expect([0, 1, 2].map((column) => before![column]! + last![column]!)).toEqual([1, 0, 1]);
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(violations.map((violation) => violation.id)).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/server-hours-1366.png` });
  await page.keyboard.press('Escape');
  await expect(hoursDialog).toBeHidden();
  // Still a table (not cards) at 1366 px with the sidebar open.
  await expect(page.locator('[data-layout="table"]')).toHaveCount(1);
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

  await createServerGroup(page, 'e2e reviewed', { review: true });
  await expect(page.getByRole('row').filter({ hasText: 'e2e reviewed' })).toContainText('Reviewed');

  const shown = await registerServer(page, {
    name: 'e2e-soar',
    group: 'e2e reviewed',
    integration: 'Signed webhook',
  });
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
