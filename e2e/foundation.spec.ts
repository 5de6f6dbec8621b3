import { expect, test } from '@playwright/test';
import { signIn } from './support/session';
import { DEMO_ADMIN, DEMO_USER } from './support/stack';

/** A token the server never signed, shaped like one, with the given claims. */
function unsignedToken(claims: Record<string, unknown>): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.c2lnbmF0dXJl`;
}

test.describe('sign-in', () => {
  test('enables the submit only for a valid e-mail and a password', async ({ page }) => {
    await page.goto('/login');
    const submit = page.getByRole('button', { name: 'Login' });
    await expect(submit).toBeDisabled();
    await page.getByLabel('E-mail', { exact: true }).fill('not-an-email');
    await page.getByLabel('Password').fill('x');
    await expect(submit).toBeDisabled();
    await page.getByLabel('E-mail', { exact: true }).fill('someone@example.com');
    await expect(submit).toBeEnabled();
    await page.getByLabel('Password').fill('');
    await expect(submit).toBeDisabled();
    await expect(page.getByRole('link', { name: 'Sign up' })).toBeVisible();
  });

  test('shows the server message for a wrong password and for an unknown e-mail alike', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('E-mail', { exact: true }).fill(DEMO_USER.email);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid e-mail or password.');
    await page.getByLabel('E-mail', { exact: true }).fill('nobody@guardian.local');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid e-mail or password.');
    await expect(page).toHaveURL(/\/login$/);
  });

  test("shows 'Sunucuya bağlanılamadı.' when the server cannot be reached", async ({ page }) => {
    await page.route('**/api/login', (route) => route.abort('connectionrefused'));
    await page.goto('/login');
    await page.getByLabel('E-mail', { exact: true }).fill(DEMO_USER.email);
    await page.getByLabel('Password').fill(DEMO_USER.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toHaveText('Sunucuya bağlanılamadı.');
  });

  test("shows 'Bir hata oluştu.' when the answer carries no message", async ({ page }) => {
    await page.route('**/api/login', (route) => route.fulfill({ status: 500, body: '' }));
    await page.goto('/login');
    await page.getByLabel('E-mail', { exact: true }).fill(DEMO_USER.email);
    await page.getByLabel('Password').fill(DEMO_USER.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toHaveText('Bir hata oluştu.');
  });
});

test.describe('routing and roles', () => {
  test('a visitor is sent to /login from / and from deep links', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/cloudflare/zones/abc/rules');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('the user gets the user menu and dashboard, one group open at a time', async ({ page }) => {
    await signIn(page, DEMO_USER);
    await expect(page.getByRole('heading', { name: 'Genel Durum' })).toBeVisible();
    // The tiles are live (/api/reports/overview): the person's servers and alerts, the demo's analytics.
    await expect(page.getByText('Servers that reported in the last 24 hours')).toBeVisible();
    for (const label of ['Active Servers', 'Security Alerts', 'Blocked Threats', 'System Health'])
      await expect(page.getByText(label, { exact: true })).toBeVisible();
    await expect(page.getByText(/^\d+(\.\d)?%$/)).toBeVisible();
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await expect(menu.getByRole('link', { name: 'Overview' })).toBeVisible();
    await menu.getByRole('button', { name: 'Cloudflare' }).click();
    await expect(menu.getByRole('link', { name: 'Zones' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Overview' })).toBeHidden();
    await expect(page.getByRole('navigation', { name: 'Admin menu' })).toHaveCount(0);

    // A signed-in person does not see the login page; / goes to the dashboard.
    await page.goto('/login');
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/');
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('the group of the current path opens first; unknown routes get a 404 with a way back', async ({
    page,
  }) => {
    await signIn(page, DEMO_USER);
    await page.goto('/reports/traffic');
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await expect(menu.getByRole('link', { name: 'Traffic' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.goto('/no/such/page');
    await expect(page.getByText(/not found/i).first()).toBeVisible();
    await page
      .getByRole('link', { name: /dashboard/i })
      .last()
      .click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('the administrator gets the admin menu and the welcome panel', async ({ page }) => {
    await signIn(page, DEMO_ADMIN);
    const menu = page.getByRole('navigation', { name: 'Admin menu' });
    for (const item of ['Dashboard', 'Users', 'Plans', 'System Setting', 'Helpdesk']) {
      await expect(menu.getByRole('link', { name: item })).toBeVisible();
    }
    await expect(page.getByText(/welcome/i).first()).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Genel Durum' })).toHaveCount(0);
  });

  test('an expired token is removed and the person sent to /login', async ({ page }) => {
    await page.goto('/login');
    const expired = unsignedToken({ sub: '2', email: DEMO_USER.email, level: 1, iat: 1, exp: 2 });
    await page.evaluate((token) => localStorage.setItem('token', token), expired);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  test('a token the server did not sign gets the person signed out at the first call', async ({ page }) => {
    await page.goto('/login');
    const forged = unsignedToken({ sub: '1', email: DEMO_ADMIN.email, level: 0, iat: 1, exp: 4_102_444_800 });
    await page.evaluate((token) => localStorage.setItem('token', token), forged);
    await page.goto('/cloudflare/accounts');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('logout removes the token and goes to /login', async ({ page }) => {
    await signIn(page, DEMO_USER);
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  test('logout ends the session on the server: its token is refused afterwards', async ({
    page,
    request,
  }) => {
    await signIn(page, DEMO_USER);
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const accounts = () =>
      request.get('/api/cloudflare/accounts', { headers: { authorization: `Bearer ${token}` } });
    expect((await accounts()).status()).toBe(200);
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect((await accounts()).status()).toBe(401);
  });
});

test.describe('phone', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the sidebar is a drawer opened by the menu button', async ({ page }) => {
    await signIn(page, DEMO_USER);
    const openMenu = page.getByRole('button', { name: 'Open menu' });
    await expect(openMenu).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeHidden();
    await openMenu.click();
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await expect(menu).toBeVisible();
    await menu.getByRole('button', { name: 'Cloudflare' }).click();
    await menu.getByRole('link', { name: 'Accounts' }).click();
    await expect(page).toHaveURL(/\/cloudflare\/accounts$/);
    await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeHidden();
  });
});
