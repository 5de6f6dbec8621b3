import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { signIn } from './support/session';
import { setSmtpToInbox, shareSmtpInbox, type SmtpInbox } from './support/smtp-inbox';
import { DEMO_ADMIN } from './support/stack';

/** With SHOTS_DIR set, System Setting is saved at 1366 and 390 px. */
const SHOTS_DIR = process.env.SHOTS_DIR;

let inbox: SmtpInbox;
shareSmtpInbox((started) => (inbox = started));

test('an administrator sets SMTP to a test SMTP server and sends a test e-mail that arrives', async ({
  page,
}) => {
  await signIn(page, DEMO_ADMIN);
  await page
    .getByRole('navigation', { name: 'Admin menu' })
    .first()
    .getByRole('link', { name: 'System Setting' })
    .click();
  await expect(page).toHaveURL(/\/admin\/settings$/);
  await expect(page.getByRole('heading', { level: 1, name: 'System Setting' })).toBeVisible();

  // A value out of its range is refused with the range, under its field.
  const audit = page.getByLabel('Keep the audit trail');
  await audit.fill('0');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(
    page.getByText('Keep the audit trail must be a whole number from 1 to 36500 days.').first(),
  ).toBeVisible();
  await audit.fill('365');

  await setSmtpToInbox(page, inbox);

  const section = page.getByRole('region', { name: 'Send a test e-mail' });
  await section.getByLabel('Recipient').fill('ops@example.com');
  await section.getByRole('button', { name: 'Send a test e-mail' }).click();
  await expect(section.getByText(/^Sent to ops@example\.com\./)).toBeVisible();
  const [mail] = await inbox.waitFor(1);
  expect(mail).toMatchObject({
    from: 'guardian@example.com',
    to: ['ops@example.com'],
    subject: 'Guardian test e-mail',
  });

  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations).toEqual([]);
  if (SHOTS_DIR) {
    mkdirSync(SHOTS_DIR, { recursive: true });
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.screenshot({ path: `${SHOTS_DIR}/system-settings-1366.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS_DIR}/system-settings-390.png`, fullPage: true });
  }
});
