import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { signIn } from './support/session';
import { DEMO_ADMIN } from './support/stack';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

/** With SHOTS_DIR set, the notification channels are saved at 1366 and 390 px. */
const SHOTS_DIR = process.env.SHOTS_DIR;

let receiver: WebhookReceiver;
test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
test.afterAll(() => receiver?.close());

test('an administrator adds a webhook channel, sends a test, and the receiver verifies its signature', async ({
  page,
}) => {
  await signIn(page, DEMO_ADMIN);
  await page.goto('/admin/settings');
  const section = page.getByRole('region', { name: 'Notification channels' });
  await expect(section).toBeVisible();

  // A URL that is not https:// (nor this machine's, which the demo allows) is refused in words.
  await section.getByRole('button', { name: 'Add Channel' }).click();
  let dialog = page.getByRole('dialog', { name: 'Add a notification channel' });
  await dialog.getByLabel(/^Name/).fill('SIEM receiver');
  await dialog.getByLabel(/^URL/).fill('http://receiver.example/hook');
  await dialog.getByRole('button', { name: 'Add Channel' }).click();
  await expect(dialog.getByText('The URL must be an https:// address.').first()).toBeVisible();

  await dialog.getByLabel(/^URL/).fill(receiver.url);
  await dialog.getByRole('button', { name: 'Add Channel' }).click();
  dialog = page.getByRole('dialog', { name: 'Channel "SIEM receiver" added' });
  const secret = (await dialog.getByLabel('Signing secret', { exact: true }).textContent())!.trim();
  expect(secret).toMatch(/^whsec_/);
  receiver.verifyWith(secret);
  if (SHOTS_DIR) {
    mkdirSync(SHOTS_DIR, { recursive: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS_DIR}/notification-channel-secret-390.png` });
    await page.setViewportSize({ width: 1366, height: 900 });
  }
  await dialog.getByRole('button', { name: 'Done' }).click();

  const row = section.getByRole('row').filter({ hasText: 'SIEM receiver' });
  await expect(row.getByText(/^http:\/\/127\.0\.0\.1:\d+\/\*\*\*\*dian$/)).toBeVisible();
  await expect(page.getByText(secret)).toHaveCount(0);

  receiver.answer({ status: 202, body: 'accepted by the SIEM' });
  await row.getByRole('button', { name: 'Send a test' }).click();
  await expect(
    section.getByText(
      `Test delivered to "SIEM receiver". 127.0.0.1:${receiver.port} answered 202: accepted by the SIEM`,
    ),
  ).toBeVisible();
  const [post] = await receiver.waitFor(1);
  expect(post!.verified, post!.verifyError).toBe(true);
  expect(JSON.parse(post!.body)).toMatchObject({ type: 'channel.test', data: { channel: 'SIEM receiver' } });
  await expect(row.getByText('Delivered')).toBeVisible();

  // The receiver refuses: the error in words, and the row says the test failed.
  receiver.answer({ status: 503, body: 'maintenance' });
  await row.getByRole('button', { name: 'Send a test' }).click();
  await expect(
    section.getByText(
      `The test message was not delivered: 127.0.0.1:${receiver.port} answered 503: maintenance`,
    ),
  ).toBeVisible();
  await expect(row.getByText('1 in a row')).toBeVisible();

  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations).toEqual([]);
  if (SHOTS_DIR) {
    mkdirSync(SHOTS_DIR, { recursive: true });
    await section.scrollIntoViewIfNeeded();
    await page.setViewportSize({ width: 1366, height: 900 });
    await section.screenshot({ path: `${SHOTS_DIR}/notification-channels-1366.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await section.screenshot({ path: `${SHOTS_DIR}/notification-channels-390.png` });
  }

  await row.getByRole('button', { name: 'Delete channel SIEM receiver' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete notification channel' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Channel "SIEM receiver" deleted.' }),
  ).toBeVisible();
  await expect(section.getByText('No channel yet: alerts are shown in the console only.')).toBeVisible();
});
