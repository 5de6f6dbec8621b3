import { expect, test } from '@playwright/test';
import { Authenticator } from './support/authenticator';
import { signIn } from './support/session';
import { DEMO_ADMIN } from './support/stack';

// Issue 16's flow end to end: an administrator adds a person on the Users page; the person signs in,
// turns on two-factor with a code the test computes as an authenticator app would, and signs in again
// with it; the administrator then sees all of it in everyone's Activity.
const email = `e2e-people-${Date.now()}@example.com`;
const PASSWORD = 'people-flow-password';

test('an administrator adds a person, who turns on two-factor and signs in with it; the trail shows both', async ({
  page,
  browser,
}) => {
  await signIn(page, DEMO_ADMIN);
  await page.goto('/admin/users');
  await page.getByRole('button', { name: 'Add User' }).click();
  const add = page.getByRole('dialog', { name: 'Add User' });
  await add.getByLabel('E-mail').fill(email);
  await add.getByRole('textbox', { name: 'First password' }).fill(PASSWORD);
  await add.getByRole('button', { name: 'Add User' }).click();
  await page.getByRole('dialog', { name: 'User Added' }).getByRole('button', { name: 'Done' }).click();

  // The person, in a browser of their own.
  const context = await browser.newContext();
  const person = await context.newPage();
  await signIn(person, { email, password: PASSWORD });
  await person.goto('/profile');
  const section = person.getByRole('region', { name: /Two-factor sign-in/ });
  await section.getByRole('button', { name: 'Turn On' }).click();
  const enrol = person.getByRole('dialog', { name: 'Turn On Two-Factor Sign-In' });
  const secret = (await enrol.getByLabel('Secret').textContent())!.replace(/\s/g, '');
  const app = new Authenticator(secret);
  await enrol.getByLabel('Code from the app').fill(app.nextCode());
  await enrol.getByRole('button', { name: 'Turn On' }).click();
  await expect(enrol.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
  await enrol.getByRole('button', { name: 'I have saved my recovery codes' }).click();

  // Signing in again asks for a code after the password (a step's code is taken once: the app's next).
  await person.getByRole('button', { name: 'User menu' }).click();
  await person.getByRole('menuitem', { name: 'Logout' }).click();
  await person.getByLabel('E-mail', { exact: true }).fill(email);
  await person.getByLabel('Password').fill(PASSWORD);
  await person.getByRole('button', { name: 'Login' }).click();
  await expect(person.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  await person.getByLabel('Authentication code').fill(app.nextCode());
  await person.getByRole('button', { name: 'Verify' }).click();
  await expect(person).toHaveURL(/\/dashboard$/);
  await context.close();

  // The administrator's view of everyone's trail, filtered to the person.
  await page.goto('/admin/activity');
  await page.getByLabel('Person').fill(email);
  const trail = page.getByRole('list', { name: 'Activity' }).getByRole('listitem');
  await expect(trail.filter({ hasText: 'POST /api/me/two-factor/enable' })).toHaveCount(1);
  await expect(trail.filter({ hasText: 'POST /api/login/two-factor' })).toHaveCount(1);
  await page.getByLabel('Person').fill(DEMO_ADMIN.email);
  await expect(trail.filter({ hasText: 'POST /api/admin/users' }).first()).toBeVisible();
});
