import { expect, test, type BrowserContextOptions, type Page } from '@playwright/test';

/** Signs in through the login form, as a person does, and waits for the dashboard. */
export async function signIn(page: Page, user: { email: string; password: string }): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('E-mail', { exact: true }).fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/**
 * Runs the spec's tests in order on one page, signed in as `user` before the first and closed after the
 * last, so each test carries on where the one before left the app. `keep` hands the page to the spec.
 */
export function shareSignedInPage(
  user: { email: string; password: string },
  keep: (page: Page) => void,
  options: BrowserContextOptions = {},
): void {
  let shared: Page | undefined;
  test.describe.configure({ mode: 'serial' });
  test.beforeAll(async ({ browser }) => {
    shared = await browser.newPage(options);
    await signIn(shared, user);
    keep(shared);
  });
  test.afterAll(() => shared?.close());
}
