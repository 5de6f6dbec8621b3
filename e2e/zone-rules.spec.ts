import { expect, test, type Locator, type Page } from '@playwright/test';
import { signIn } from './support/session';
import { DEMO_USER } from './support/stack';
import { searchZones } from './support/zones';

/**
 * The rules screen on the demo stack. The seeded zone guardian-demo.com is only read; the flows that
 * change rules run on demo-site-51.net (Guardian Demo, Enterprise), which has none of its own, and
 * remove what they add.
 */
const SEEDED_ZONE = 'guardian-demo.com';
const SHOTS = process.env.SHOTS_DIR ?? 'test-results';
const WORK_ZONE = 'demo-site-51.net';

test.describe.configure({ mode: 'serial' });

let workZoneId = '';

/** Goes to a zone's rules the way a person does: the zones table, its search, the Rules link. */
async function openRulesOf(page: Page, domain: string): Promise<string> {
  await page.goto('/cloudflare/zones');
  await searchZones(page, domain);
  await page.getByRole('link', { name: `Rules of ${domain}`, exact: true }).click();
  await expect(page).toHaveURL(/\/cloudflare\/zones\/[0-9a-f]{32}\/rules$/);
  const zoneId = page.url().split('/').at(-2)!;
  await expect(page.getByRole('heading', { name: `Rules for Zone ID: ${zoneId}` })).toBeVisible();
  // The domain beside the opaque id, and the way back.
  await expect(page.locator('main').getByText(domain, { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Zones' })).toBeVisible();
  return zoneId;
}

async function openWorkZone(page: Page): Promise<void> {
  if (!workZoneId) workZoneId = await openRulesOf(page, WORK_ZONE);
  else await page.goto(`/cloudflare/zones/${workZoneId}/rules`);
  await expect(page.getByRole('heading', { name: `Rules for Zone ID: ${workZoneId}` })).toBeVisible();
}

/** The newest toast with this text (earlier ones may still be on screen). */
async function expectToast(page: Page, text: string) {
  await expect(page.getByRole('status').filter({ hasText: text }).last()).toBeVisible();
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const firewallTable = (page: Page) => page.getByRole('table', { name: 'Firewall rules' });
const pageRulesTable = (page: Page) => page.getByRole('table', { name: 'Page rules' });
const rowOf = (table: Locator, text: string) => table.getByRole('row').filter({ hasText: text });

/** The descriptions of the firewall rules, top to bottom. */
async function firewallOrder(page: Page, prefix: string): Promise<string[]> {
  const cells = firewallTable(page).locator('tbody tr td:nth-child(2)');
  return (await cells.allInnerTexts()).map((text) => text.trim()).filter((text) => text.startsWith(prefix));
}

async function addFirewallRule(page: Page, description: string, expression: string, action?: string) {
  await page.getByRole('button', { name: 'Add Firewall Rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Firewall Rule' });
  await dialog.getByRole('textbox', { name: 'Description' }).fill(description);
  await dialog.getByRole('textbox', { name: 'Expression' }).fill(expression);
  if (action) await dialog.getByLabel('Action').selectOption(action);
  await dialog.getByRole('button', { name: 'Add Rule' }).click();
  await expect(dialog).toBeHidden();
  await expectToast(page, 'Firewall rule added and priorities updated!');
  await expect(rowOf(firewallTable(page), description)).toBeVisible();
}

/** A real mouse drag: press on the handle, move past the 5 px threshold in steps, drop on the target. */
async function dragRow(page: Page, handle: Locator, target: Locator, below: boolean) {
  const from = (await handle.boundingBox())!;
  const to = (await target.boundingBox())!;
  const x = from.x + from.width / 2;
  const y = from.y + from.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x, y + (below ? 8 : -8), { steps: 4 });
  await page.mouse.move(x, to.y + (below ? to.height * 0.8 : to.height * 0.2), { steps: 20 });
  await page.mouse.up();
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 800 });
  await signIn(page, DEMO_USER);
});

test('shows the seeded rules of guardian-demo.com in both tabs', async ({ page }) => {
  await openRulesOf(page, SEEDED_ZONE);
  await expect(page.getByRole('tab', { name: 'Firewall Rules' })).toHaveAttribute('aria-selected', 'true');
  const firewall = firewallTable(page);
  await expect(rowOf(firewall, 'Block abusive sources')).toContainText('Block');
  await expect(rowOf(firewall, 'Challenge admin area')).toContainText('Managed Challenge');
  await expect(rowOf(firewall, 'Allow office network')).toContainText('Allow');
  const paused = rowOf(firewall, 'JS challenge for bad bots');
  await expect(paused).toContainText('JS Challenge');
  await expect(paused).toContainText('Paused');

  // The tabs work from the keyboard.
  await page.getByRole('tab', { name: 'Firewall Rules' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Page Rules' })).toHaveAttribute('aria-selected', 'true');
  const pages = pageRulesTable(page);
  await expect(pages.locator('tbody tr')).toHaveCount(3);
  await expect(pages.locator('tbody tr td:first-child')).toHaveText(['1', '2', '3']);
  await expect(rowOf(pages, 'guardian-demo.com/old-blog/*')).toContainText(
    'Forwarding URL (301) to https://guardian-demo.com/blog/$1',
  );
  await expect(rowOf(pages, 'guardian-demo.com/static/*')).toContainText('Disabled');
  // Other actions show their setting's label and their value's, not Cloudflare's ids.
  await expect(rowOf(pages, 'guardian-demo.com/static/*')).toContainText(/Cache Level: [A-Z]\w+/);
});

test('adds, edits, pauses, resumes and deletes a firewall rule', async ({ page }) => {
  await openWorkZone(page);
  await page.getByRole('button', { name: 'Add Firewall Rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Firewall Rule' });
  await dialog.getByRole('button', { name: 'Add Rule' }).click();
  await expect(dialog.getByText('Description is required.')).toBeVisible();
  await expect(dialog.getByText('Expression is required.')).toBeVisible();
  await expect(dialog.getByLabel('Action')).toHaveValue('block');
  const help = dialog.getByRole('link', { name: /Expression help/ });
  await expect(help).toHaveAttribute('target', '_blank');
  await expect(help).toHaveAttribute('rel', 'noopener');

  // The Rules language's grammar is checked at the field (issue 18: these were saved as Active rules);
  // Cloudflare's own parser judges the rest.
  await dialog.getByRole('textbox', { name: 'Description' }).fill('E2E login probes');
  const expression = dialog.getByRole('textbox', { name: 'Expression' });
  for (const [typed, message] of [
    ['ip.src eq', "Expected a value after 'eq' at character 10."],
    ['ip.src ==== 1', "Expected a value after '==' instead of '==' at character 10."],
    ['http.request.uri.pth contains "/wp-login"', "Unknown field 'http.request.uri.pth' at character 1."],
  ]) {
    await expression.fill(typed!);
    await dialog.getByRole('button', { name: 'Add Rule' }).click();
    await expect(expression).toHaveAccessibleDescription(new RegExp(escapeRegExp(message!)));
    await expect(dialog.getByText(message!)).toBeVisible();
  }
  await dialog.getByRole('textbox', { name: 'Expression' }).fill('ip.src in $no_such_list');
  await dialog.getByRole('button', { name: 'Add Rule' }).click();
  await expect(dialog.getByRole('alert')).toContainText('could not find list $no_such_list');

  const longExpression =
    '(http.request.uri.path contains "/wp-login.php") or (http.request.uri.path contains "/xmlrpc.php")';
  await dialog.getByRole('textbox', { name: 'Expression' }).fill(longExpression);
  await dialog.getByRole('button', { name: 'Add Rule' }).click();
  await expect(dialog).toBeHidden();
  await expectToast(page, 'Firewall rule added and priorities updated!');
  const row = rowOf(firewallTable(page), 'E2E login probes');
  await expect(row).toContainText(`${longExpression.slice(0, 70)}...`);
  await expect(row).toContainText('Active');

  // The full expression is in the tooltip.
  await row.getByText(`${longExpression.slice(0, 70)}...`).hover();
  await expect(page.getByRole('tooltip')).toContainText(longExpression);

  await row.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Firewall Rule' });
  await expect(edit.getByRole('textbox', { name: 'Description' })).toHaveValue('E2E login probes');
  await edit.getByRole('textbox', { name: 'Description' }).fill('E2E WordPress probes');
  await edit.getByLabel('Action').selectOption('managed_challenge');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(edit).toBeHidden();
  const edited = rowOf(firewallTable(page), 'E2E WordPress probes');
  await expect(edited).toContainText('Managed Challenge');

  await edited.getByRole('button', { name: 'Toggle Status' }).click();
  await expect(edited).toContainText('Paused');
  await edited.getByRole('button', { name: 'Toggle Status' }).click();
  await expect(edited).toContainText('Active');

  await edited.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Firewall Rule' });
  await expect(confirm).toContainText(
    'Are you sure you want to delete the rule "E2E WordPress probes"? This action cannot be undone.',
  );
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(edited).toHaveCount(0);
});

test('reorders firewall rules by a mouse drag and by the keyboard', async ({ page }) => {
  await openWorkZone(page);
  await addFirewallRule(page, 'E2E order A', 'http.request.uri.path eq "/a"');
  await addFirewallRule(page, 'E2E order B', 'http.request.uri.path eq "/b"', 'allow');
  await addFirewallRule(page, 'E2E order C', 'http.request.uri.path eq "/c"', 'skip');
  await expect
    .poll(() => firewallOrder(page, 'E2E order'))
    .toEqual(['E2E order A', 'E2E order B', 'E2E order C']);

  // Drag C by its description cell above A.
  const table = firewallTable(page);
  await dragRow(
    page,
    rowOf(table, 'E2E order C').getByText('E2E order C', { exact: true }),
    rowOf(table, 'E2E order A'),
    false,
  );
  await expectToast(page, 'Rule order updated successfully!');
  await expect
    .poll(() => firewallOrder(page, 'E2E order'))
    .toEqual(['E2E order C', 'E2E order A', 'E2E order B']);
  await page.reload();
  await expect
    .poll(() => firewallOrder(page, 'E2E order'))
    .toEqual(['E2E order C', 'E2E order A', 'E2E order B']);
  await expect(rowOf(table, 'E2E order B')).toContainText('Allow');
  await expect(rowOf(table, 'E2E order C')).toContainText('Skip');

  // Keyboard: focus C's priority handle, lift with Space, move down twice, drop with Space.
  const handle = rowOf(table, 'E2E order C').getByRole('button', { name: /Drag to reorder/ });
  await handle.focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Space');
  await expectToast(page, 'Rule order updated successfully!');
  await expect
    .poll(() => firewallOrder(page, 'E2E order'))
    .toEqual(['E2E order A', 'E2E order B', 'E2E order C']);
  await page.reload();
  await expect
    .poll(() => firewallOrder(page, 'E2E order'))
    .toEqual(['E2E order A', 'E2E order B', 'E2E order C']);

  // A save that fails restores the old order; the table is dimmed while it runs (held until seen so).
  let answerSave = () => {};
  const saveHeld = new Promise<void>((resolve) => (answerSave = resolve));
  await page.route('**/firewall-rules', async (route) => {
    if (route.request().method() !== 'PUT') return route.fallback();
    await saveHeld;
    await route.fulfill({
      status: 429,
      contentType: 'application/json',
      body: JSON.stringify({
        code: 'RATE_LIMITED',
        message: 'Cloudflare is rate limiting this account. Please try again in a few minutes.',
        errors: [],
      }),
    });
  });
  await dragRow(
    page,
    rowOf(table, 'E2E order A').getByText('E2E order A', { exact: true }),
    rowOf(table, 'E2E order C'),
    true,
  );
  await expect(page.locator('[aria-busy="true"]').filter({ has: table })).toBeVisible();
  answerSave();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Cloudflare is rate limiting this account.' }),
  ).toBeVisible();
  await expect
    .poll(() => firewallOrder(page, 'E2E order'))
    .toEqual(['E2E order A', 'E2E order B', 'E2E order C']);
  await page.unroute('**/firewall-rules');

  // A drop in the same place saves nothing: the page's next writes are the deletes that follow it.
  const writes: string[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'GET' && request.url().includes('/firewall-rules'))
      writes.push(request.method());
  });
  await dragRow(
    page,
    rowOf(table, 'E2E order A').getByText('E2E order A', { exact: true }),
    rowOf(table, 'E2E order A'),
    true,
  );
  // The drag library announces the drop once the drop has been handled.
  await expect(page.locator('[id^="rfd-announcement-"]')).toHaveText(
    /dropped the item\.\s+You have moved the item from position (\d+)\s+to position \1\s*$/,
  );

  for (const name of ['E2E order A', 'E2E order B', 'E2E order C']) {
    await rowOf(table, name).getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete Firewall Rule' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(rowOf(table, name)).toHaveCount(0);
  }
  expect(writes).toEqual(['DELETE', 'DELETE', 'DELETE']);
});

// Issue 35 item 12: Security Level started at Essentially Off, unwarned.
test("a page rule's Security Level starts at the zone's and warns when lowered", async ({ page }) => {
  await openWorkZone(page);
  await page.getByRole('tab', { name: 'Page Rules' }).click();
  await page.getByRole('button', { name: 'Add Page Rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Page Rule' });
  await dialog.getByLabel('If the URL matches').fill('demo-site-51.net/admin/*');
  await dialog.getByRole('combobox', { name: 'Add a setting' }).selectOption('security_level');
  const level = dialog.getByRole('combobox', { name: 'Security Level', exact: true });
  // The sandbox's zones are at Cloudflare's default, Medium.
  await expect(level).toHaveValue('medium');
  await expect(dialog.getByText(/lowers security/)).toHaveCount(0);
  await level.selectOption({ label: 'Essentially Off' });
  const warning =
    "Essentially Off lowers security for the URLs this rule matches: the zone's Security Level is Medium.";
  await expect(level).toHaveAccessibleDescription(warning);
  await expect(dialog.getByText(warning)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/page-rule-security-warning-1366.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await dialog.getByText(warning).scrollIntoViewIfNeeded();
  await expect(dialog.getByText(warning)).toBeInViewport();
  await page.screenshot({ path: `${SHOTS}/page-rule-security-warning-390.png` });
  await page.setViewportSize({ width: 1366, height: 800 });
  await level.selectOption({ label: 'High' });
  await expect(dialog.getByText(/lowers security/)).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});

test('adds, edits, toggles and deletes page rules of several groups', async ({ page }) => {
  await openWorkZone(page);
  await page.getByRole('tab', { name: 'Page Rules' }).click();
  const table = pageRulesTable(page);
  await expect(table.getByText('No page rules found.')).toBeVisible();

  // Redirect: exclusive, 301 by default, a URL required.
  await page.getByRole('button', { name: 'Add Page Rule' }).click();
  let dialog = page.getByRole('dialog', { name: 'Add Page Rule' });
  const picker = dialog.getByRole('combobox', { name: 'Add a setting' });
  await dialog.getByLabel('If the URL matches').fill('demo-site-51.net/old/*');
  await picker.selectOption('forwarding_url');
  await expect(dialog.getByRole('combobox', { name: 'Status code', exact: true })).toHaveValue('301');
  await expect(picker).toBeDisabled();
  await dialog.getByRole('button', { name: 'Add Rule' }).click();
  await expect(dialog.getByText('The destination URL is required.')).toBeVisible();
  // Issue 18: a destination that is no URL was saved.
  const destination = dialog.getByRole('textbox', { name: 'Destination URL' });
  await destination.fill('not a url');
  await dialog.getByRole('button', { name: 'Add Rule' }).click();
  await expect(destination).toHaveAccessibleDescription(/must be a full http:\/\/ or https:\/\/ address/);
  await expect(
    dialog.getByText(
      'The destination URL must be a full http:// or https:// address, such as https://www.example.com/$1.',
    ),
  ).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Status code', exact: true }).selectOption('302');
  await dialog.getByRole('textbox', { name: 'Destination URL' }).fill('https://demo-site-51.net/new/$1');
  await dialog.getByRole('button', { name: 'Add Rule' }).click();
  await expectToast(page, 'Page rule added successfully!');
  await expect(rowOf(table, 'demo-site-51.net/old/*')).toContainText(
    'Forwarding URL (302) to https://demo-site-51.net/new/$1',
  );

  // Cache: only cache settings are offered once Browser Cache TTL is first.
  await page.getByRole('button', { name: 'Add Page Rule' }).click();
  dialog = page.getByRole('dialog', { name: 'Add Page Rule' });
  await dialog.getByLabel('If the URL matches').fill('demo-site-51.net/static/*');
  await dialog.getByRole('combobox', { name: 'Add a setting' }).selectOption('browser_cache_ttl');
  await expect(
    dialog.getByRole('combobox', { name: 'Add a setting' }).locator('option[value="ssl"]'),
  ).toHaveCount(0);
  await dialog
    .getByRole('combobox', { name: 'Browser Cache TTL', exact: true })
    .selectOption({ label: '4 hours' });
  await dialog.getByRole('combobox', { name: 'Add a setting' }).selectOption('cache_level');
  await dialog
    .getByRole('combobox', { name: 'Cache Level', exact: true })
    .selectOption({ label: 'Cache Everything' });
  await dialog.getByRole('combobox', { name: 'Add a setting' }).selectOption('edge_cache_ttl');
  await dialog.getByRole('spinbutton', { name: /Edge Cache TTL/ }).fill('7200');
  await dialog.getByRole('button', { name: 'Add Rule' }).click();
  await expect(dialog).toBeHidden();
  const cacheRow = rowOf(table, 'demo-site-51.net/static/*');
  await expect(cacheRow).toContainText('Browser Cache TTL: 4 hours');
  await expect(cacheRow).toContainText('Edge Cache TTL (seconds): 7200');

  // SSL/HTTPS: a toggle starts on, a select at its first option.
  await page.getByRole('button', { name: 'Add Page Rule' }).click();
  dialog = page.getByRole('dialog', { name: 'Add Page Rule' });
  await dialog.getByLabel('If the URL matches').fill('http://demo-site-51.net/*');
  await dialog.getByRole('combobox', { name: 'Add a setting' }).selectOption('always_use_https');
  await expect(dialog.getByRole('switch', { name: 'Always Use HTTPS' })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  await dialog.getByRole('combobox', { name: 'Add a setting' }).selectOption('ssl');
  await expect(dialog.getByRole('combobox', { name: 'SSL', exact: true })).toHaveValue('off');
  await dialog.getByRole('combobox', { name: 'SSL', exact: true }).selectOption({ label: 'Full (Strict)' });
  await dialog.getByRole('button', { name: 'Add Rule' }).click();
  await expect(dialog).toBeHidden();

  // The newest rule has priority 1; the list runs by ascending priority.
  await expect(table.locator('tbody tr td:nth-child(2)')).toHaveText([
    'http://demo-site-51.net/*',
    'demo-site-51.net/static/*',
    'demo-site-51.net/old/*',
  ]);

  // Edit keeps priority and status.
  await cacheRow.getByRole('button', { name: 'Edit' }).click();
  dialog = page.getByRole('dialog', { name: 'Edit Page Rule' });
  await expect(dialog.getByRole('combobox', { name: 'Browser Cache TTL', exact: true })).toHaveValue('14400');
  await expect(dialog.getByRole('combobox', { name: 'Cache Level', exact: true })).toHaveValue(
    'cache_everything',
  );
  await dialog
    .getByRole('combobox', { name: 'Browser Cache TTL', exact: true })
    .selectOption({ label: '1 day' });
  await dialog.getByRole('button', { name: 'Remove Edge Cache TTL (seconds)' }).click();
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'Page rule updated successfully!');
  await expect(cacheRow).toContainText('Browser Cache TTL: 1 day');
  await expect(cacheRow).not.toContainText('Edge Cache TTL');
  await expect(cacheRow.locator('td').first()).toHaveText('2');

  await cacheRow.getByRole('button', { name: 'Toggle Status' }).click();
  await expectToast(page, 'Rule status updated successfully!');
  await expect(cacheRow).toContainText('Disabled');
  await page.reload();
  await page.getByRole('tab', { name: 'Page Rules' }).click();
  await expect(rowOf(table, 'demo-site-51.net/static/*')).toContainText('Disabled');

  for (const pattern of [
    'http://demo-site-51.net/*',
    'demo-site-51.net/static/*',
    'demo-site-51.net/old/*',
  ]) {
    await rowOf(table, pattern).getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Page Rule' });
    await expect(confirm).toContainText(
      `Are you sure you want to delete the rule "${pattern}"? This action cannot be undone.`,
    );
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(rowOf(table, pattern)).toHaveCount(0);
  }
  await expectToast(page, 'Page rule deleted successfully!');
  await expect(table.getByText('No page rules found.')).toBeVisible();
});
