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
  await page.getByLabel('E-mail', { exact: true }).fill(person.email);
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

test('each session says its browser, address and last use; Sign out all other sessions ends them, not this one nor an API key', async ({
  page,
  browser,
  request,
}) => {
  const person = await createPerson(request, 'others');
  const phone = await browser.newContext({
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  });
  const phonePage = await phone.newPage();
  try {
    await signIn(phonePage, person);
    await page.setViewportSize({ width: 1366, height: 900 });
    await signIn(page, person);
    const login = await request.post('/api/login', { data: person });
    const { token } = (await login.json()) as { token: string };
    const created = await request.post('/api/me/api-keys', {
      headers: { authorization: `Bearer ${token}` },
      data: { name: 'fail2ban', access: 'ban' },
    });
    expect(created.status()).toBe(201);
    const { key } = (await created.json()) as { key: string };
    await openProfile(page);

    const rows = page.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
    await expect(rows).toHaveCount(3);
    const iPhone = rows.filter({ hasText: 'Safari on iOS' });
    await expect(iPhone).toContainText(/Signed in .+ from \S+/);
    await expect(iPhone).toContainText('Last seen');
    await expect(rows.filter({ hasText: 'This browser' })).toContainText(/ on /);
    await page.getByRole('region', { name: 'Sessions' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/profile-sessions-devices-1366.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(rows).toHaveCount(3);
    await page.screenshot({ path: `${SHOTS}/profile-sessions-devices-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1366, height: 900 });

    await page.getByRole('button', { name: 'Sign out all other sessions' }).click();
    await page
      .getByRole('dialog', { name: 'Sign out all other sessions' })
      .getByRole('button', { name: 'Sign out all other sessions' })
      .click();
    await expect(page.getByRole('status').filter({ hasText: '2 other sessions ended.' })).toBeVisible();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('This browser');

    // The phone is signed out at its next request; the API key still works; this browser carries on.
    await phonePage.goto('/cloudflare/zones');
    await expect(phonePage).toHaveURL(/\/login$/);
    const byKey = await request.get('/api/cloudflare/accounts', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(byKey.status()).toBe(200);
    await page.goto('/dashboard/activity');
    await expect(page.getByRole('list', { name: 'Activity' }).getByRole('listitem').first()).toContainText(
      `${person.email} signed out all their other sessions (2 sessions)`,
    );
  } finally {
    await phone.close();
  }
});
