import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { signIn } from './support/session';
import { DEMO_ADMIN, DEMO_USER } from './support/stack';

// Issue 38: a person opens a ticket, the administrator answers it from the Helpdesk, and the person sees
// the answer (told by an alert). Each side signs in in its own browser context. With SHOTS_DIR set it
// saves each screen at 1366 and 390 px; every screen is checked with axe (WCAG 2 A and AA).
const SHOTS = process.env.SHOTS_DIR;
const SUBJECT = `Cannot add my zone ${Date.now().toString(36)}`;
const PHONE = { width: 390, height: 844 };

test.describe.configure({ mode: 'serial' });

let person: Page;
let admin: Page;

async function signedIn(browser: Browser, who: { email: string; password: string }) {
  // A context of its own: axe needs one, and each side keeps its own session.
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await signIn(page, who);
  return page;
}

async function checked(page: Page, name: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  if (!SHOTS) return;
  await page.screenshot({ path: `${SHOTS}/${name}-1366.png`, fullPage: true });
  const size = page.viewportSize()!;
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `${SHOTS}/${name}-390.png`, fullPage: true });
  await page.setViewportSize(size);
}

test.beforeAll(async ({ browser }) => {
  person = await signedIn(browser, DEMO_USER);
  admin = await signedIn(browser, DEMO_ADMIN);
});
test.afterAll(async () => {
  await person?.context().close();
  await admin?.context().close();
});

test('the guide and the FAQ are searchable', async () => {
  await person.goto('/support/guide');
  await expect(person.getByRole('heading', { level: 1, name: 'Guardian user guide' })).toBeVisible();
  await person.getByRole('searchbox', { name: 'Search the guide' }).fill('recovery codes');
  await expect(person.getByRole('region', { name: 'Your profile, two-factor and API keys' })).toBeVisible();
  await expect(person.getByRole('region', { name: 'Zones and DNS records' })).toHaveCount(0);
  await expect(person.locator('mark').first()).toBeVisible();
  await checked(person, 'guide');

  await person.goto('/support/faq');
  await expect(person.getByRole('region', { name: 'What is the 12-hour list write budget?' })).toBeVisible();
  await checked(person, 'faq');
});

test('a person opens a ticket; the administrator assigns and answers it; the person sees the answer', async () => {
  await person.goto('/support/ticket');
  await person.getByRole('button', { name: 'New ticket' }).click();
  const dialog = person.getByRole('dialog', { name: 'New ticket' });
  await dialog.getByLabel('Subject').fill(SUBJECT);
  await dialog.getByLabel('Category').selectOption('cloudflare');
  await dialog.getByLabel('Message').fill('Adding example.org answers an error.\nWhat should I check?');
  await dialog.getByRole('button', { name: 'Open ticket' }).click();
  const thread = person.getByRole('article', { name: `Ticket: ${SUBJECT}` });
  await expect(thread).toBeVisible();
  await expect(thread.getByText('Waiting for support')).toBeVisible();
  await checked(person, 'ticket');

  // The administrator is told in the console: the alert links to the ticket in the Helpdesk.
  await admin.goto('/dashboard/alerts');
  await admin
    .getByRole('link', { name: `Ticket ${SUBJECT}` })
    .first()
    .click();
  await expect(admin).toHaveURL(/\/admin\/helpdesk\?ticket=\d+$/);
  const queue = admin.getByRole('article', { name: `Ticket: ${SUBJECT}` });
  await expect(queue.getByText('What should I check?', { exact: false })).toBeVisible();
  await queue.getByRole('combobox', { name: 'Assignee' }).selectOption({ label: DEMO_ADMIN.email });
  await expect(admin.getByText(`Assigned to ${DEMO_ADMIN.email}.`)).toBeVisible();
  await queue.getByRole('textbox', { name: 'Reply' }).fill('Set the name servers <b>first</b>.\nThen wait.');
  await queue.getByRole('button', { name: 'Send reply' }).click();
  await expect(admin.getByText('Answer sent: the person is told.')).toBeVisible();
  await checked(admin, 'helpdesk');

  // The person's alert says support answered, and opens the ticket with the answer, as text.
  await person.goto('/dashboard/alerts');
  const alert = person.getByRole('listitem').filter({ hasText: `Support answered your ticket "${SUBJECT}"` });
  await expect(alert).toBeVisible();
  await alert.getByRole('link', { name: `Ticket ${SUBJECT}` }).click();
  await expect(person).toHaveURL(/\/support\/ticket\?ticket=\d+$/);
  await expect(thread.getByText('Set the name servers <b>first</b>.', { exact: false })).toBeVisible();
  await expect(thread.locator('b')).toHaveCount(0);
  await expect(thread.getByText('Answered')).toBeVisible();

  await thread.getByRole('button', { name: 'Close ticket' }).click();
  await expect(thread.getByText('This ticket is closed: it takes no more messages.')).toBeVisible();
});
