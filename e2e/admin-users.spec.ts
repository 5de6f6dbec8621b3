import { mkdirSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { signIn } from './support/session';
import { DEMO_ADMIN } from './support/stack';

/** With SHOTS_DIR set, the Users page is saved at 1280 and 390 px (as responsive.spec.ts does). */
const SHOTS_DIR = process.env.SHOTS_DIR;

const email = `e2e-admin-users-${Date.now()}@example.com`;
const FIRST_PASSWORD = 'first-password-e2e';
const NEW_PASSWORD = 'second-password-e2e';

function rowOf(page: Page, who: string): Locator {
  return page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: who });
}

/**
 * Searches the users for one person and waits for the answer: until it comes, the rows shown are the
 * previous search's, and a click on one of them may land on whatever replaces it (seen on a slow machine).
 */
async function findUser(page: Page, who: string) {
  await page.getByRole('searchbox', { name: 'Search users' }).fill(who);
  await expect(page.getByText('1 match', { exact: true })).toBeVisible();
}

async function toast(page: Page, text: string) {
  await expect(page.getByRole('status').filter({ hasText: text })).toBeVisible();
}

test('an administrator adds a user, changes their level, disables and enables them, resets their password; the user signs in', async ({
  page,
  browser,
}) => {
  await signIn(page, DEMO_ADMIN);
  await page
    .getByRole('navigation', { name: 'Admin menu' })
    .first()
    .getByRole('link', { name: 'Users' })
    .click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await expect(rowOf(page, DEMO_ADMIN.email)).toContainText('Administrator');
  await expect(page.getByRole('switch', { name: 'Require two-factor sign-in for everyone' })).toBeVisible();

  // Add a user with a first password: shown once, with Copy.
  await page.getByRole('button', { name: 'Add User' }).click();
  let dialog = page.getByRole('dialog', { name: 'Add User' });
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByRole('textbox', { name: 'First password' }).fill(FIRST_PASSWORD);
  await dialog.getByRole('button', { name: 'Add User' }).click();
  dialog = page.getByRole('dialog', { name: 'User Added' });
  await expect(dialog.getByLabel('Password', { exact: true })).toHaveText(FIRST_PASSWORD);
  await toast(page, `User ${email} added.`);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();

  await findUser(page, email);
  const row = rowOf(page, email);
  await expect(row).toContainText('User (level 1)');
  await expect(row).toContainText('Active');
  await expect(row).toContainText('Never');

  // Change the level.
  await row.getByRole('button', { name: `Change level of ${email}` }).click();
  dialog = page.getByRole('dialog', { name: 'Change Level' });
  await dialog.getByRole('spinbutton', { name: 'Level' }).fill('2');
  await dialog.getByRole('button', { name: 'Save Level' }).click();
  await toast(page, `Level of ${email} changed to 2.`);
  await expect(row).toContainText('User (level 2)');

  // Disable: the user cannot sign in; enable again.
  await row.getByRole('button', { name: `Disable ${email}` }).click();
  dialog = page.getByRole('dialog', { name: 'Disable User' });
  await dialog.getByRole('button', { name: 'Disable' }).click();
  await toast(page, `${email} disabled.`);
  await expect(row).toContainText('Disabled');
  const refused = await page.request.post('/api/login', { data: { email, password: FIRST_PASSWORD } });
  expect(refused.ok()).toBe(false);

  await row.getByRole('button', { name: `Enable ${email}` }).click();
  await toast(page, `${email} enabled.`);
  await expect(row).toContainText('Active');

  // Reset the password to a new one, shown once.
  await row.getByRole('button', { name: `Reset password of ${email}` }).click();
  dialog = page.getByRole('dialog', { name: 'Reset Password' });
  await dialog.getByRole('radio', { name: /Set a new password/ }).check();
  await dialog.getByRole('textbox', { name: 'New password' }).fill(NEW_PASSWORD);
  await dialog.getByRole('button', { name: 'Reset Password' }).click();
  dialog = page.getByRole('dialog', { name: 'Password Reset' });
  await expect(dialog.getByLabel('Password', { exact: true })).toHaveText(NEW_PASSWORD);
  await dialog.getByRole('button', { name: 'Done' }).click();

  // The last administrator cannot be disabled: said in the dialog.
  await page.getByRole('searchbox', { name: 'Search users' }).fill('');
  await page.getByRole('searchbox', { name: 'Search users' }).fill(DEMO_ADMIN.email);
  await rowOf(page, DEMO_ADMIN.email)
    .getByRole('button', { name: `Disable ${DEMO_ADMIN.email}` })
    .click();
  dialog = page.getByRole('dialog', { name: 'Disable User' });
  await dialog.getByRole('button', { name: 'Disable' }).click();
  await expect(dialog.getByRole('alert')).toContainText(
    'Failed to disable the user. This is the last active administrator',
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // The new user signs in with the new password, in a browser of their own; the old one is refused.
  const context = await browser.newContext();
  const newUser = await context.newPage();
  const old = await newUser.request.post('/api/login', { data: { email, password: FIRST_PASSWORD } });
  expect(old.ok()).toBe(false);
  await signIn(newUser, { email, password: NEW_PASSWORD });
  await expect(newUser.getByRole('navigation', { name: 'Main menu' }).first()).toBeAttached();
  await expect(newUser.getByRole('navigation', { name: 'Admin menu' })).toHaveCount(0);
  await context.close();

  // The administrator sees the sign-in.
  await page.reload();
  await findUser(page, email);
  await expect(rowOf(page, email)).toBeVisible();
  await expect(rowOf(page, email)).not.toContainText('Never');

  if (SHOTS_DIR) {
    mkdirSync(SHOTS_DIR, { recursive: true });
    await page.getByRole('searchbox', { name: 'Search users' }).fill('');
    await expect(rowOf(page, DEMO_ADMIN.email)).toBeVisible();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      // The table decides between rows and cards in the next frame.
      await expect(page.getByRole('table', { name: 'Users' }).locator('xpath=..')).toHaveAttribute(
        'data-layout',
        width < 640 ? 'cards' : 'table',
      );
      await page.screenshot({ path: `${SHOTS_DIR}/admin-users-${width}.png`, fullPage: true });
    }
    await page.getByRole('button', { name: 'Add User' }).click();
    await page
      .getByRole('dialog', { name: 'Add User' })
      .getByRole('radio', { name: /one-time/ })
      .check();
    await page.screenshot({ path: `${SHOTS_DIR}/admin-users-add-390.png` });
    await page.getByRole('dialog', { name: 'Add User' }).getByRole('button', { name: 'Cancel' }).click();
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  // Delete, after a confirmation.
  await findUser(page, email);
  await rowOf(page, email)
    .getByRole('button', { name: `Delete ${email}` })
    .click();
  dialog = page.getByRole('dialog', { name: 'Delete User' });
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await toast(page, `User ${email} deleted.`);
  await expect(page.getByText('No users match your search.')).toBeVisible();
});

test('the set-password link the Users page shows opens the set-password page for that person', async ({
  page,
  browser,
}) => {
  const invited = `e2e-admin-users-link-${Date.now()}@example.com`;
  await signIn(page, DEMO_ADMIN);
  await page.goto('/admin/users');
  await page.getByRole('button', { name: 'Add User' }).click();
  let dialog = page.getByRole('dialog', { name: 'Add User' });
  await dialog.getByLabel('E-mail').fill(invited);
  await dialog.getByRole('radio', { name: /one-time set-password link/ }).check();
  await dialog.getByRole('button', { name: 'Add User' }).click();
  dialog = page.getByRole('dialog', { name: 'User Added' });
  const link = (await dialog.getByLabel('Set-password link', { exact: true }).textContent()) ?? '';
  expect(link).toMatch(/\/set-password#[^#\s]+$/);
  await dialog.getByRole('button', { name: 'Done' }).click();

  const context = await browser.newContext();
  const person = await context.newPage();
  await person.goto(link);
  await expect(person.getByRole('heading', { name: 'Set your password' })).toBeVisible();
  await expect(person.getByLabel('E-mail', { exact: true })).toHaveValue(invited);
  await context.close();

  await findUser(page, invited);
  await page.getByRole('button', { name: `Delete ${invited}` }).click();
  await page.getByRole('dialog', { name: 'Delete User' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No users match your search.')).toBeVisible();
});

test("an administrator sees a person's API keys and revokes one: the key is refused from then on", async ({
  page,
}) => {
  // The person makes a key for a script, as on their profile.
  const person = `e2e-keys-${Date.now()}@example.com`;
  const admin = await page.request.post('/api/login', { data: DEMO_ADMIN });
  const adminToken = ((await admin.json()) as { token: string }).token;
  await page.request.post('/api/admin/users', {
    headers: { authorization: `Bearer ${adminToken}` },
    data: { email: person, level: 1, password_setup: { method: 'password', password: FIRST_PASSWORD } },
  });
  const login = await page.request.post('/api/login', { data: { email: person, password: FIRST_PASSWORD } });
  const personToken = ((await login.json()) as { token: string }).token;
  const made = await page.request.post('/api/me/api-keys', {
    headers: { authorization: `Bearer ${personToken}` },
    data: { name: 'web-01 fail2ban', access: 'ban' },
  });
  expect(made.status()).toBe(201);
  const { key } = (await made.json()) as { key: string };
  const withKey = { headers: { authorization: `Bearer ${key}` } };
  expect((await page.request.get('/api/cloudflare/banlists', withKey)).status()).toBe(200);

  await signIn(page, DEMO_ADMIN);
  await page.goto('/admin/users');
  await findUser(page, person);
  await rowOf(page, person)
    .getByRole('button', { name: `API keys of ${person}` })
    .click();
  const dialog = page.getByRole('dialog', { name: 'API Keys' });
  const keys = dialog.getByRole('table', { name: `API keys of ${person}` });
  const keyRow = keys.getByRole('row').filter({ hasText: 'web-01 fail2ban' });
  await expect(keyRow).toContainText('Ban');
  // The header row stands above the key's row in the dialog (a header sticky under the page's top bar
  // once covered the first row here).
  const header = (await keys.getByRole('columnheader', { name: 'Name' }).boundingBox())!;
  const first = (await keyRow.boundingBox())!;
  expect(header.y + header.height).toBeLessThanOrEqual(first.y + 1);

  await keyRow.getByRole('button', { name: 'Revoke API key web-01 fail2ban' }).click();
  await page.getByRole('dialog', { name: 'Revoke API Key' }).getByRole('button', { name: 'Revoke' }).click();
  await toast(page, `API key web-01 fail2ban of ${person} revoked.`);
  await expect(keys).toContainText(`${person} has no API keys.`);
  expect((await page.request.get('/api/cloudflare/banlists', withKey)).status()).toBe(401);
});
