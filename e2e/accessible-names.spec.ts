import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './support/session';
import { DEMO_ADMIN, DEMO_USER } from './support/stack';

// WCAG 2.5.3 (Label in Name), as axe checks it: a control named by aria-label or aria-labelledby holds
// the words it shows. Every signed-in page has the top bar and the sidebar, so each is checked.
const RULE = 'label-content-name-mismatch';

const PERSON_PAGES = [
  '/dashboard',
  '/cloudflare/accounts',
  '/cloudflare/banlists',
  '/cloudflare/ips',
  '/cloudflare/zones',
  '/cloudflare/rules',
  '/dashboard/activity',
  '/dashboard/jobs',
  '/profile',
];
const ADMIN_PAGES = ['/dashboard', '/admin/users', '/admin/activity', '/profile'];

/** The serious or critical violations of the rule on the page as it is now. */
async function nameMismatches(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withRules([RULE]).analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${page.url()}: ${node.html}`));
}

async function checkPages(page: Page, paths: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const path of paths) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // The top bar's user menu is drawn once the session is read: check it there.
    await expect(page.getByRole('button', { name: /\(user menu\)$/ })).toBeVisible();
    found.push(...(await nameMismatches(page)));
  }
  return found;
}

for (const width of [1366, 390]) {
  test(`signed-in pages name their controls by what they show, at ${width} px`, async ({ page }) => {
    test.slow();
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, DEMO_USER);
    const found = await checkPages(page, PERSON_PAGES);
    // A ban list's items and a zone's rules, reached as a person does.
    await page.goto('/cloudflare/zones');
    await page
      .getByRole('link', { name: /^Rules of / })
      .first()
      .click();
    await expect(page.getByRole('heading', { name: /^Rules for Zone ID:/ })).toBeVisible();
    found.push(...(await nameMismatches(page)));
    // The open user menu too.
    await page.getByRole('button', { name: /\(user menu\)$/ }).click();
    await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeVisible();
    found.push(...(await nameMismatches(page)));
    await page.keyboard.press('Escape');

    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await signIn(page, DEMO_ADMIN);
    found.push(...(await checkPages(page, ADMIN_PAGES)));
    expect(found).toEqual([]);
  });
}

test('the user menu is named by the e-mail it shows', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page, DEMO_USER);
  const menu = page.getByRole('button', { name: `${DEMO_USER.email} (user menu)`, exact: true });
  await expect(menu).toBeVisible();
  await expect(menu).toContainText(DEMO_USER.email);
  await expect(page.getByRole('link', { name: 'Guardian Your Digital Guardian (Dashboard)' })).toBeVisible();
});
