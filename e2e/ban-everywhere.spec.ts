import { expect, test, type Page } from '@playwright/test';
import { listsHoldingTheSearch } from './support/ip-lists';
import { shareSignedInPage } from './support/session';
import { DEMO_USER } from './support/stack';

// Issue 15: find an address across accounts and ban it everywhere (office_allowlist of Guardian Demo
// and acme_bad_actors of Acme Security, the demo's seeded lists), then remove it again from the
// chosen lists, so the lists end as seeded. 198.18.0.0/15 is in no seeded list.
const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots/ban-everywhere';
const ADDRESS = '198.18.7.77';

let page: Page;
shareSignedInPage(DEMO_USER, (signedIn) => (page = signedIn), { viewport: { width: 1280, height: 800 } });

const resultRows = () => listsHoldingTheSearch(page);

async function searchFor(q: string) {
  await page.goto(`/cloudflare/ips?q=${encodeURIComponent(q)}`);
  await expect(page.getByRole('heading', { name: 'IP Lists' })).toBeVisible();
}

test('finds an address in no list, bans it in lists of two accounts, and sees each account finish', async () => {
  await searchFor(ADDRESS);
  await expect(page.getByText(`${ADDRESS} is in none of your`)).toBeVisible();

  await page.getByRole('button', { name: 'Ban everywhere' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ban everywhere' });
  await expect(dialog).toBeVisible();
  // IP lists only, grouped by account: the hostname list of Guardian Demo is not offered.
  const demo = dialog.getByRole('group', { name: 'Guardian Demo' });
  const acme = dialog.getByRole('group', { name: 'Acme Security' });
  await expect(demo.getByRole('checkbox', { name: 'office_allowlist' })).toBeVisible();
  await expect(dialog.getByText('partner_hosts')).toHaveCount(0);
  // Issue 35 item 9: each list says what it is for; the blocklists start chosen, the allowlist not.
  const allowlist = demo.getByRole('checkbox', { name: 'office_allowlist' });
  await expect(allowlist).not.toBeChecked();
  await expect(allowlist).toHaveAccessibleDescription('Allowlist, from the name');
  await expect(acme.getByRole('checkbox', { name: 'acme_bad_actors' })).toBeChecked();
  await expect(demo.getByRole('checkbox', { name: 'blocked_ips' })).toBeChecked();
  await demo.getByRole('checkbox', { name: 'blocked_ips' }).uncheck();
  await allowlist.check();
  await dialog.getByLabel(/Comment/).fill('e2e: port scanner');
  await dialog.getByLabel('Expires').selectOption({ label: '1 day' });
  await page.screenshot({ path: `${SHOTS}/dialog-1280.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/dialog-390.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
  await dialog.getByRole('button', { name: 'Ban in 2 lists' }).click();
  // Banning into an allowlist is asked about first, naming it.
  const warning = page.getByRole('dialog', { name: 'Ban into an allowlist?' });
  await expect(warning).toContainText('office_allowlist (Guardian Demo) is an allowlist');
  await page.screenshot({ path: `${SHOTS}/allowlist-warning-1280.png` });
  await warning.getByRole('button', { name: 'Ban in 2 lists anyway' }).click();
  await expect(dialog).toBeHidden();

  const progress = page.getByRole('region', { name: `Ban ${ADDRESS} everywhere` });
  await expect(progress.getByRole('status')).toHaveText('Done in every account.', { timeout: 30_000 });
  await expect(progress.getByRole('listitem', { name: 'Guardian Demo' })).toContainText(
    'office_allowlist: added',
  );
  await expect(progress.getByRole('listitem', { name: 'Acme Security' })).toContainText(
    'acme_bad_actors: added',
  );
  // The answer is asked again: both lists hold it now, added through the console by this person, with
  // its expiry.
  await expect(resultRows()).toHaveCount(2);
  for (const row of await resultRows().all()) {
    await expect(row).toContainText(ADDRESS);
    await expect(row).toContainText('e2e: port scanner');
    await expect(row).toContainText(`by ${DEMO_USER.email} (console)`);
    await expect(row).not.toContainText('Never');
  }
  await page.screenshot({ path: `${SHOTS}/banned-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/banned-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Banning it again: the lists holding it are marked and cannot be chosen.
  await page.getByRole('button', { name: 'Ban everywhere' }).click();
  await expect(dialog.getByRole('checkbox', { name: 'office_allowlist' })).toBeDisabled();
  await expect(dialog.getByRole('checkbox', { name: 'acme_bad_actors' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});

test('removes it from a chosen list, then from the other', async () => {
  await searchFor(ADDRESS);
  await expect(resultRows()).toHaveCount(2);
  await page.getByRole('checkbox', { name: `Choose ${ADDRESS} in acme_bad_actors (Acme Security)` }).check();
  await page.getByRole('button', { name: 'Remove from 1 chosen' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove from lists' });
  await expect(confirm).toContainText(`${ADDRESS} from acme_bad_actors (Acme Security)`);
  await expect(confirm).not.toContainText('office_allowlist');
  await page.screenshot({ path: `${SHOTS}/remove-confirm-1280.png` });
  await confirm.getByRole('button', { name: 'Remove' }).click();
  const progress = page.getByRole('region', { name: `Remove ${ADDRESS} from 1 list` });
  await expect(progress.getByRole('status')).toHaveText('Done in every account.', { timeout: 30_000 });
  await expect(resultRows()).toHaveCount(1);
  await expect(resultRows().first()).toContainText('office_allowlist');

  await page.getByRole('checkbox', { name: 'Choose every match' }).check();
  await page.getByRole('button', { name: 'Remove from 1 chosen' }).click();
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText(`${ADDRESS} is in none of your`)).toBeVisible({ timeout: 30_000 });
});

test("the Ban Lists screen shows each account's capacity", async () => {
  await page.goto('/cloudflare/banlists');
  const capacity = page.getByRole('list', { name: 'List capacity per account' });
  // Guardian Demo holds a hostname list: Enterprise, inferred.
  const demo = capacity.getByRole('listitem', { name: 'Guardian Demo' });
  await expect(demo.getByRole('combobox', { name: 'Plan of Guardian Demo' })).toHaveValue('');
  await expect(demo).toContainText('of 1,000');
  await expect(demo).toContainText('of 500,000');
  await expect(capacity.getByRole('listitem', { name: 'Acme Security' })).toContainText('of 10,000');
  await capacity.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/capacity-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/capacity-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
});
