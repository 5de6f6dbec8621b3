import { expect, test, type Page } from '@playwright/test';
import { shareSignedInPage } from './support/session';
import { atCloudflare } from './support/sandbox';
import { DEMO_USER } from './support/stack';
import { searchZones } from './support/zones';

/**
 * Zone settings applied at Cloudflare (the demo's sandbox) and read back; the rules overview of every
 * zone. The settings flow works on demo-site-47.net (Guardian Demo), which no other spec uses, and
 * puts every setting back as it found it. The overview only reads.
 */
const ZONE = 'demo-site-47.net';

let page: Page;
shareSignedInPage(DEMO_USER, (signedIn) => (page = signedIn), { viewport: { width: 1366, height: 800 } });

async function zoneIdAtCloudflare(name: string): Promise<string> {
  const result = await atCloudflare<{ id: string }[]>(`/zones?name=${name}`);
  return result[0]!.id;
}

async function openSettings() {
  await page.goto('/cloudflare/zones');
  await searchZones(page, ZONE);
  await page.getByRole('button', { name: `Settings of ${ZONE}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Zone Settings' });
  await expect(dialog.getByRole('switch', { name: 'Always Use HTTPS' })).toBeEnabled();
  return dialog;
}

const switchOf = (dialog: ReturnType<Page['getByRole']>, name: string) =>
  dialog.getByRole('switch', { name });

test('a zone setting is applied at Cloudflare and read back after a reload', async () => {
  const zoneId = await zoneIdAtCloudflare(ZONE);
  let dialog = await openSettings();
  // What the sandbox has for a new zone.
  await expect(switchOf(dialog, 'Always Use HTTPS')).toHaveAttribute('aria-checked', 'false');
  await expect(switchOf(dialog, 'Under Attack Mode')).toHaveAttribute('aria-checked', 'false');
  await expect(switchOf(dialog, 'Block AI Training Bots')).toHaveAttribute('aria-checked', 'false');
  await expect(dialog.getByText('Passive')).toHaveCount(4);

  await switchOf(dialog, 'Always Use HTTPS').click();
  await switchOf(dialog, 'Under Attack Mode').click();
  await switchOf(dialog, 'Block AI Training Bots').click();
  await expect(dialog.getByText('Active')).toHaveCount(3);
  await page.screenshot({ path: test.info().outputPath('zone-settings-1366.png') });
  const saved = page.waitForResponse(
    (r) => r.url().endsWith(`/api/cloudflare/zones/${zoneId}/settings`) && r.request().method() === 'PUT',
  );
  await dialog.getByRole('button', { name: 'Save' }).click();
  expect((await saved).request().postDataJSON()).toEqual({
    alwaysUseHTTPS: true,
    underAttackMode: true,
    blockAITrainingBots: true,
  });
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Zone settings saved.' })).toBeVisible();

  expect((await atCloudflare(`/zones/${zoneId}/settings/always_use_https`)).value).toBe('on');
  expect((await atCloudflare(`/zones/${zoneId}/settings/security_level`)).value).toBe('under_attack');
  expect(await atCloudflare(`/zones/${zoneId}/bot_management`)).toMatchObject({
    ai_bots_protection: 'block',
    fight_mode: false,
  });

  await page.reload();
  dialog = await openSettings();
  await expect(switchOf(dialog, 'Always Use HTTPS')).toHaveAttribute('aria-checked', 'true');
  await expect(switchOf(dialog, 'Bot Fight Mode')).toHaveAttribute('aria-checked', 'false');
  await expect(switchOf(dialog, 'Under Attack Mode')).toHaveAttribute('aria-checked', 'true');
  await expect(switchOf(dialog, 'Block AI Training Bots')).toHaveAttribute('aria-checked', 'true');

  // Back as it was: Under Attack Mode off returns the security level to what it was (medium).
  await switchOf(dialog, 'Always Use HTTPS').click();
  await switchOf(dialog, 'Under Attack Mode').click();
  await switchOf(dialog, 'Block AI Training Bots').click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  expect((await atCloudflare(`/zones/${zoneId}/settings/security_level`)).value).toBe('medium');
  expect((await atCloudflare(`/zones/${zoneId}/settings/always_use_https`)).value).toBe('off');
  expect((await atCloudflare(`/zones/${zoneId}/bot_management`)).ai_bots_protection).toBe('disabled');
});

test('the zone settings dialog on a phone', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  const dialog = await openSettings();
  await expect(switchOf(dialog, 'Block AI Training Bots')).toBeInViewport();
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeInViewport();
  await page.screenshot({ path: test.info().outputPath('zone-settings-390.png') });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await page.setViewportSize({ width: 1366, height: 800 });
});

test.describe('the rules overview (/cloudflare/rules)', () => {
  const zoneItem = (domain: string) => page.getByRole('listitem', { name: domain, exact: true });

  test('counts every zone’s rules, page by page, after showing its progress', async () => {
    await page.goto('/dashboard');
    // The sidebar's Cloudflare > Rules, as a person reaches it.
    const cloudflare = page.getByRole('button', { name: 'Cloudflare' });
    if ((await cloudflare.getAttribute('aria-expanded')) === 'false') await cloudflare.click();
    await page.getByRole('link', { name: 'Rules', exact: true }).click();
    await expect(page).toHaveURL(/\/cloudflare\/rules$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Rules' })).toBeVisible();
    await expect(page.getByText(/^Zones 1-25 of \d+$/)).toBeVisible();
    await expect(page.getByRole('progressbar')).toBeHidden();
    await expect(zoneItem('acme-security.com')).toContainText(/Firewall rules: \d+/);
    await page.screenshot({ path: test.info().outputPath('rules-overview-1366.png'), fullPage: false });

    // guardian-demo.com sorts after the 52 demo sites: on page 3.
    await page.getByRole('button', { name: 'Page 3' }).click();
    const seeded = zoneItem('guardian-demo.com');
    await expect(seeded).toContainText('Firewall rules: 4');
    await expect(seeded).toContainText('Page rules: 3');
  });

  test('finds rules across the zones of the page by expression, and links into the zone’s rules', async () => {
    await page.getByRole('searchbox', { name: 'Search rules' }).fill('/admin');
    const seeded = zoneItem('guardian-demo.com');
    await expect(seeded).toContainText('Firewall rules: 4 (1 match)');
    await expect(seeded).toContainText('Challenge admin area');
    await expect(seeded).toContainText('http.request.uri.path contains "/admin"');
    await expect(page.getByText(/^1 matching rule in the \d+ zones of this page$/)).toBeVisible();

    await page.setViewportSize({ width: 390, height: 844 });
    await seeded.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('rules-overview-390.png') });
    await page.setViewportSize({ width: 1366, height: 800 });

    await seeded.getByRole('link', { name: 'guardian-demo.com' }).click();
    await expect(page).toHaveURL(/\/cloudflare\/zones\/[0-9a-f]{32}\/rules$/);
    await expect(page.getByRole('heading', { name: /^Rules for Zone ID: / })).toBeVisible();
  });
});
