import { expect, test, type Page } from '@playwright/test';
// The server tests' SMTP inbox (a real SMTP server on a loopback port), shared rather than copied.
import { startSmtpInbox, type SmtpInbox } from '../../apps/server/src/test/smtp-inbox';

export type { SmtpInbox };

/**
 * Starts an SMTP inbox before the spec's first test and closes it after its last; `keep` hands it to
 * the spec.
 */
export function shareSmtpInbox(keep: (inbox: SmtpInbox) => void): void {
  let started: SmtpInbox | undefined;
  test.beforeAll(async () => {
    started = await startSmtpInbox();
    keep(started);
  });
  test.afterAll(() => started?.close());
}

/** On System Setting (already open), the administrator sends Guardian's e-mail through `inbox` and saves. */
export async function setSmtpToInbox(page: Page, inbox: SmtpInbox): Promise<void> {
  await page.getByLabel('SMTP host').fill('127.0.0.1');
  await page.getByLabel('SMTP port').fill(String(inbox.port));
  await page.getByLabel('TLS').selectOption('none');
  await page.getByLabel('Sender').fill('Guardian <guardian@example.com>');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'System settings saved.' })).toBeVisible();
}
