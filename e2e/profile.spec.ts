import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signIn } from './support/session';
import { DEMO_ADMIN } from './support/stack';

// Each test makes a person of its own through the admin API, so changing a password or ending
// sessions never touches the demo users the other specs sign in as.
const SHOTS = process.env.SHOTS_DIR ?? 'test-results';

async function createPerson(request: APIRequestContext, name: string) {
  const login = await request.post('/api/login', { data: DEMO_ADMIN });
  expect(login.status()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const person = { email: `${name}-${Date.now()}@example.com`, password: 'first-password-123' };
  const created = await request.post('/api/admin/users', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      email: person.email,
      level: 1,
      password_setup: { method: 'password', password: person.password },
    },
  });
  expect(created.status()).toBe(201);
  return person;
}

async function openProfile(page: Page) {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
}

test('a person changes their password with the current one and signs in with the new one', async ({
  page,
  request,
}) => {
  const person = await createPerson(request, 'password');
  const newPassword = 'second-password-456';
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, person);
  await openProfile(page);

  await page
    .getByRole('region', { name: 'Password' })
    .getByRole('button', { name: 'Change Password' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Change Password' });
  await dialog.getByLabel('Current password').fill('not-my-password');
  await dialog.getByLabel('New password', { exact: false }).first().fill(newPassword);
  await dialog.getByLabel('Confirm new password').fill(newPassword);
  await dialog.getByRole('button', { name: 'Change Password' }).click();
  await expect(dialog.getByLabel('Current password')).toHaveAccessibleDescription(
    'The current password is wrong.',
  );
  await page.screenshot({ path: `${SHOTS}/profile-password-wrong-1280.png` });

  await dialog.getByLabel('Current password').fill(person.password);
  await dialog.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Password changed.' })).toBeVisible();
  await expect(dialog).toBeHidden();

  // Still signed in with the session the server answered: a fresh load calls the API with it.
  await page.reload();
  const sessions = page.getByRole('list', { name: 'Sessions' });
  await expect(sessions.getByRole('listitem')).toHaveCount(1);
  await expect(sessions).toContainText('This browser');

  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('E-mail').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await signIn(page, { email: person.email, password: newPassword });
});

test('a person sees their two sessions, ends the other one, and that browser is signed out', async ({
  page,
  browser,
  request,
}) => {
  const person = await createPerson(request, 'sessions');
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  try {
    await signIn(otherPage, person);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, person);
    await openProfile(page);

    const sessions = page.getByRole('list', { name: 'Sessions' });
    const rows = sessions.getByRole('listitem');
    await expect(rows).toHaveCount(2);
    // Newest first: this browser signed in last.
    await expect(rows.first()).toContainText('This browser');
    await expect(rows.nth(1)).not.toContainText('This browser');
    await page.getByRole('region', { name: 'Sessions' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/profile-sessions-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(rows).toHaveCount(2);
    await page.screenshot({ path: `${SHOTS}/profile-sessions-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    await rows
      .nth(1)
      .getByRole('button', { name: /^End Session/ })
      .click();
    const confirm = page.getByRole('dialog', { name: 'End Session' });
    await confirm.getByRole('button', { name: 'End Session' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Session ended.' })).toBeVisible();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('This browser');

    // The other browser still holds its token; its next request is refused and it lands on /login.
    await otherPage.goto('/cloudflare/zones');
    await expect(otherPage).toHaveURL(/\/login$/);
    await expect(otherPage.getByRole('status')).toHaveText('Your session has ended. Please sign in again.');
    expect(await otherPage.evaluate(() => localStorage.getItem('token'))).toBeNull();

    // Ending this browser's own session signs it out.
    await rows
      .first()
      .getByRole('button', { name: /^Sign Out/ })
      .click();
    await page
      .getByRole('dialog', { name: 'End Session' })
      .getByRole('button', { name: 'End and Sign Out' })
      .click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/login$/);
  } finally {
    await other.close();
  }
});
