import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { signIn } from './support/session';
import { setSmtpToInbox, shareSmtpInbox, type SmtpInbox } from './support/smtp-inbox';
import { DEMO_ADMIN } from './support/stack';

/** With SHOTS_DIR set, the profile's Notifications section is saved at 1366 and 390 px. */
const SHOTS_DIR = process.env.SHOTS_DIR;

let inbox: SmtpInbox;
shareSmtpInbox((started) => (inbox = started));

test("a person's new alert is e-mailed to them through the SMTP server the administrator set", async ({
  page,
  browser,
  request,
}) => {
  // The administrator points outgoing e-mail at the test SMTP server.
  await signIn(page, DEMO_ADMIN);
  await page.goto('/admin/settings');
  await setSmtpToInbox(page, inbox);

  // A new person (no alert e-mailed to them yet, whatever the specs before did).
  const login = await request.post('/api/login', { data: DEMO_ADMIN });
  const adminToken = ((await login.json()) as { token: string }).token;
  const person = { email: `notified-${Date.now()}@example.com`, password: 'notified person 42' };
  const created = await request.post('/api/admin/users', {
    headers: { authorization: `Bearer ${adminToken}` },
    data: {
      email: person.email,
      level: 1,
      password_setup: { method: 'password', password: person.password },
    },
  });
  expect(created.status()).toBe(201);

  // Their own browser (a context of its own: axe needs one).
  const context = await browser.newContext();
  const own = await context.newPage();
  await signIn(own, person);
  await own.goto('/profile');
  const section = own.getByRole('region', { name: 'Notifications' });
  await expect(section.getByLabel('New API key: e-mail')).toBeChecked();
  await expect(section.getByLabel('New API key: console (always)')).toBeDisabled();
  await expect(section.getByText(/E-mail is not set up/)).toHaveCount(0);
  // The keyboard turns a kind off; the section saves it.
  await section.getByLabel('A job failed: e-mail').focus();
  await own.keyboard.press('Space');
  await section.getByRole('button', { name: 'Save Notifications' }).click();
  await expect(own.getByRole('status').filter({ hasText: 'Notification settings saved.' })).toBeVisible();
  await own.reload();
  await expect(
    own.getByRole('region', { name: 'Notifications' }).getByLabel('A job failed: e-mail'),
  ).not.toBeChecked();

  // The alert's cause: a new API key. Its e-mail arrives at the SMTP server.
  await own.getByRole('button', { name: 'Create Key' }).click();
  const create = own.getByRole('dialog', { name: 'Create API Key' });
  await create.getByLabel('Name').fill('e2e notified');
  await create.getByRole('button', { name: 'Create Key' }).click();
  await own
    .getByRole('dialog', { name: 'API key "e2e notified"' })
    .getByRole('button', { name: 'Done' })
    .click();
  await expect
    .poll(() => inbox.messages.filter((mail) => mail.to.includes(person.email)).length, { timeout: 15_000 })
    .toBe(1);
  const [mail] = inbox.messages.filter((message) => message.to.includes(person.email));
  expect(mail!.from).toBe('guardian@example.com');
  expect(mail!.subject).toContain('Guardian: A new API key "e2e notified" (');

  const axe = await new AxeBuilder({ page: own }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations).toEqual([]);
  if (SHOTS_DIR) {
    mkdirSync(SHOTS_DIR, { recursive: true });
    const notifications = own.getByRole('region', { name: 'Notifications' });
    await own.setViewportSize({ width: 1366, height: 900 });
    await notifications.screenshot({ path: `${SHOTS_DIR}/notifications-1366.png` });
    await own.setViewportSize({ width: 390, height: 844 });
    await notifications.screenshot({ path: `${SHOTS_DIR}/notifications-390.png` });
  }
  await context.close();
});
