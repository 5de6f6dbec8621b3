import { expect, test } from '@playwright/test';
import { signIn } from './support/session';
import { DEMO_USER } from './support/stack';

// Issue 18's findings, walked as a new user would: each test fails on the console before its fix.

test("login shows a proxy's non-JSON error page as text", async ({ page }) => {
  await page.route('**/api/login', (route) =>
    route.fulfill({ status: 502, contentType: 'text/plain', body: '502 Bad Gateway: upstream unreachable' }),
  );
  await page.goto('/login');
  await page.getByLabel('E-mail', { exact: true }).fill(DEMO_USER.email);
  await page.getByLabel('Password').fill(DEMO_USER.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert')).toHaveText('502 Bad Gateway: upstream unreachable');
});

test('closing a dialog returns keyboard focus to the button that opened it', async ({ page }) => {
  await signIn(page, DEMO_USER);
  await page.goto('/cloudflare/accounts');
  const opener = page.getByRole('button', { name: 'Add Account' });
  await opener.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(opener).toBeFocused();

  await opener.click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(opener).toBeFocused();
});

test('an ended session says so at /login, and signing in returns to the page', async ({ page }) => {
  await signIn(page, DEMO_USER);
  await page.goto('/cloudflare/zones');
  await expect(page.getByRole('heading', { name: 'Zones' })).toBeVisible();
  // The server ends the session (here: a token it refuses); the next call answers 401.
  await page.evaluate(() => localStorage.setItem('token', `${localStorage.getItem('token')}x`));
  await page.getByRole('button', { name: 'Update List' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('status')).toHaveText('Your session has ended. Please sign in again.');
  await page.getByLabel('E-mail', { exact: true }).fill(DEMO_USER.email);
  await page.getByLabel('Password').fill(DEMO_USER.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/cloudflare\/zones$/);
  await expect(page.getByRole('heading', { name: 'Zones' })).toBeVisible();
});

test("a failed zone action says the spec's text, then the server's reason", async ({ page }) => {
  await signIn(page, DEMO_USER);
  const reason = 'Cloudflare is rate limiting this account. Please try again in a few minutes.';
  await page.route('**/api/cloudflare/zones/sync', (route) =>
    route.fulfill({
      status: 429,
      contentType: 'application/json',
      body: JSON.stringify({
        code: 'RATE_LIMITED',
        message: reason,
        errors: [{ code: 'RATE_LIMITED', message: reason }],
      }),
    }),
  );
  await page.goto('/cloudflare/zones');
  await page.getByRole('button', { name: 'Update List' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to sync zones.' })).toHaveText(
    `Failed to sync zones. ${reason}`,
  );
});
