import { expect, test, type Page } from '@playwright/test';
import { DEMO_ADMIN, DEMO_USER } from './support/stack';

const ZONES_PAGE = '/cloudflare/zones?page=1';

/** Signs in on /login as it is (the state the ended session left), without waiting for a page. */
async function signInHere(page: Page, person: { email: string; password: string }) {
  await page.getByLabel('E-mail', { exact: true }).fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Login' }).click();
}

/**
 * The person signs in and opens the zones; their session then ends on the server (signed out from
 * elsewhere with the same token), so the page's next call is refused and /login says why.
 */
async function endSessionOnZones(page: Page, person: { email: string; password: string }) {
  await page.goto('/login');
  await signInHere(page, person);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(ZONES_PAGE);
  await expect(page.getByRole('heading', { name: 'Zones', level: 1 })).toBeVisible();
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const ended = await page.request.post('/api/auth/logout', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(ended.status()).toBe(204);
  await page.getByRole('button', { name: 'Update List' }).click();
  await expect(page.getByText('Your session has ended. Please sign in again.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
}

test("another person signing in after a session ended starts at the dashboard, not at that session's page", async ({
  page,
}) => {
  await endSessionOnZones(page, DEMO_USER);
  await signInHere(page, DEMO_ADMIN);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('the same person signing in again goes back to the page their session ended on', async ({ page }) => {
  await endSessionOnZones(page, DEMO_USER);
  await signInHere(page, DEMO_USER);
  await expect(page).toHaveURL(/\/cloudflare\/zones\?page=1$/);
  await expect(page.getByRole('heading', { name: 'Zones', level: 1 })).toBeVisible();
});
