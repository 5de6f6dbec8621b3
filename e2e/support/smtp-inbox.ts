import { test } from '@playwright/test';
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
