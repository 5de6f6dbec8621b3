import { expect, test } from '@playwright/test';
import { signIn } from './support/session';
import { DEMO_ADMIN } from './support/stack';

// Issue 38's plans, end to end: an administrator makes a 1-account plan and gives it to a person; the
// person's first Cloudflare account is added, the second is refused with the plan's words, and their
// profile shows the use against the plan.
const email = `e2e-plans-${Date.now()}@example.com`;
const PASSWORD = 'plans-flow-password';
const PLAN = `One Account ${Date.now() % 100_000}`;

test("a plan's limit refuses a second Cloudflare account with its message", async ({ page, browser }) => {
  await signIn(page, DEMO_ADMIN);
  await page.goto('/admin/plans');
  await expect(page.getByRole('row', { name: /Standard/ })).toContainText('Default');
  await page.getByRole('button', { name: 'Add Plan' }).click();
  const add = page.getByRole('dialog', { name: 'Add Plan' });
  await add.getByLabel('Name').fill(PLAN);
  const limits: [string, string][] = [
    ['Cloudflare accounts', '1'],
    ['Zones', '10'],
    ['Lists', '10'],
    ['List items', '1000'],
    ['API keys', '2'],
    ['Servers', '2'],
    ['Templates', '0'],
  ];
  for (const [label, value] of limits) await add.getByLabel(label).fill(value);
  await add.getByLabel('Reports reach back').selectOption({ label: '24 hours' });
  await add.getByRole('button', { name: 'Add Plan' }).click();
  await expect(add).toBeHidden();
  await expect(page.getByRole('row', { name: new RegExp(PLAN) })).toBeVisible();

  // A new person, given the plan on the Users page.
  await page.goto('/admin/users');
  await page.getByRole('button', { name: 'Add User' }).click();
  const user = page.getByRole('dialog', { name: 'Add User' });
  await user.getByLabel('E-mail').fill(email);
  await user.getByRole('textbox', { name: 'First password' }).fill(PASSWORD);
  await user.getByRole('button', { name: 'Add User' }).click();
  await page.getByRole('dialog', { name: 'User Added' }).getByRole('button', { name: 'Done' }).click();
  await page.getByRole('searchbox', { name: 'Search users' }).fill(email);
  await expect(page.getByText('1 match', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: `Change plan of ${email}` }).click();
  const change = page.getByRole('dialog', { name: 'Change Plan' });
  await change.getByLabel('Plan').selectOption({ label: PLAN });
  await change.getByRole('button', { name: 'Save Plan' }).click();
  await expect(change).toBeHidden();
  await expect(page.getByRole('row', { name: new RegExp(email.replace(/[.]/g, '\\.')) })).toContainText(PLAN);

  // The person, in a browser of their own.
  const context = await browser.newContext();
  const person = await context.newPage();
  await signIn(person, { email, password: PASSWORD });
  await person.goto('/cloudflare/accounts');
  const addAccount = async (name: string, token: string) => {
    await person.getByRole('button', { name: 'Add Account' }).click();
    const dialog = person.getByRole('dialog', { name: 'Add Account' });
    await dialog.getByLabel('Account Name').fill(name);
    await dialog.getByLabel('API Token').fill(token);
    await dialog.getByRole('button', { name: 'Add Account' }).click();
    return dialog;
  };
  await expect(await addAccount('Spare Account', 'cfsandbox-demo-token-3')).toBeHidden();
  const second = await addAccount('Guardian Demo', 'cfsandbox-demo-token-1');
  await expect(second.getByRole('alert')).toHaveText('Your plan allows 1 Cloudflare account.');
  await second.getByRole('button', { name: 'Cancel' }).click();

  await person.goto('/profile');
  const plan = person.getByRole('region', { name: `Your plan: ${PLAN}` });
  await expect(plan.getByRole('meter', { name: 'Cloudflare accounts' })).toHaveAttribute(
    'aria-valuetext',
    '1 of 1',
  );
  await expect(plan).toContainText('Reports reach back 24 hours.');
  await context.close();
});
