import { expect, test, type APIRequestContext } from '@playwright/test';
import { signIn } from './support/session';
import { DEMO_ADMIN } from './support/stack';

const SHOTS = process.env.SHOTS_DIR ?? 'test-results';

/** The demo administrator creates a person with a one-time set-password link, as the Users page does. */
async function createWithLink(request: APIRequestContext) {
  const login = await request.post('/api/login', { data: DEMO_ADMIN });
  expect(login.status()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const email = `link-${Date.now()}@example.com`;
  const created = await request.post('/api/admin/users', {
    headers: { authorization: `Bearer ${token}` },
    data: { email, level: 1, password_setup: { method: 'link' } },
  });
  expect(created.status()).toBe(201);
  const answer = (await created.json()) as { password_link: { token: string; expires_at: string } | null };
  expect(answer.password_link).not.toBeNull();
  return { email, link: `/set-password#${answer.password_link!.token}` };
}

test('a person sets their password with a one-time link, signs in with it, and the link is used up', async ({
  page,
  request,
}) => {
  const { email, link } = await createWithLink(request);
  const password = 'chosen-password-789';

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Set your password' })).toBeVisible();
  await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue(email);
  await page.screenshot({ path: `${SHOTS}/set-password-1280.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/set-password-390.png`, fullPage: true });

  await page.getByLabel('New password', { exact: false }).first().fill('short');
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page.getByText('Password must be at least 8 characters.')).toBeVisible();

  await page.getByLabel('New password', { exact: false }).first().fill(password);
  await page.getByLabel('Confirm new password').fill(password);
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page.getByRole('status')).toHaveText(
    `Your password is set. Sign in as ${email} with your new password.`,
  );
  await page.screenshot({ path: `${SHOTS}/set-password-done-390.png`, fullPage: true });
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, { email, password });

  // The same link again, in a browser without a session: used, said plainly, no form.
  const other = await page.context().browser()!.newContext();
  try {
    const again = await other.newPage();
    await again.goto(link);
    await expect(again.getByRole('alert')).toContainText('This set-password link has already been used.');
    await expect(again.getByLabel('New password', { exact: false })).toHaveCount(0);
    await again.setViewportSize({ width: 390, height: 844 });
    await again.screenshot({ path: `${SHOTS}/set-password-used-390.png`, fullPage: true });
  } finally {
    await other.close();
  }
});
