import { expect, type Locator, type Page } from '@playwright/test';

/** The demo's IP list that the specs' server groups ban into. */
export const GROUP_LIST = 'acme_bad_actors (Acme Security)';

/**
 * Creates a server group on /servers/groups, as a person does: its name, the demo's list, and the
 * review switch when asked; waits until the dialog closes.
 */
export async function createServerGroup(
  page: Page,
  name: string,
  options: { review?: boolean } = {},
): Promise<void> {
  await page.goto('/servers/groups');
  await page.getByRole('button', { name: 'Create Group' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Server Group' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel(GROUP_LIST).check();
  if (options.review) await dialog.getByLabel(/^Review: bans wait/).check();
  await dialog.getByRole('button', { name: 'Create Group' }).click();
  await expect(dialog).toBeHidden();
}

/**
 * Registers a server on /servers/list in `group` with `integration` (its label in the form), and
 * answers the dialog that shows its key and install step once.
 */
export async function registerServer(
  page: Page,
  server: { name: string; group: string; integration: string },
): Promise<Locator> {
  await page.goto('/servers/list');
  await expect(page.getByRole('heading', { name: 'Server List' })).toBeVisible();
  await page.getByRole('button', { name: 'Register Server' }).click();
  const register = page.getByRole('dialog', { name: 'Register Server' });
  await register.getByLabel('Name').fill(server.name);
  await register.getByLabel('Group').selectOption({ label: server.group });
  await register.getByLabel('Integration').selectOption({ label: server.integration });
  await register.getByRole('button', { name: 'Register' }).click();
  const shown = page.getByRole('dialog', { name: `Server "${server.name}" registered` });
  await expect(shown).toBeVisible();
  return shown;
}
