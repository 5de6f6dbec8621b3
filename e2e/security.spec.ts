import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signIn } from './support/session';
import { DEMO_ADMIN, DEMO_USER } from './support/stack';
import { ADMIN_MENU, USER_MENU } from '../apps/web/src/app/menus';

/**
 * The built app in Chromium under the server's Content-Security-Policy: every screen of the spec's
 * menus (and the dialogs of the Cloudflare screens) runs without a single CSP violation, console CSP
 * error or uncaught page error. Text from Cloudflare and from users is rendered as text: an HTML
 * payload stored as a ban-list item comment, a firewall rule description and a DNS TXT value never
 * runs (window.__xss stays undefined) and is shown literally. What this spec adds it removes.
 */

const XSS = '<img src=x onerror=window.__xss=1>';
const XSS_ZONE = 'demo-site-49.net';
const XSS_LIST = 'xss_probe_list';

// Every path of the menus (app-shell.test.tsx holds the user menu's to the spec), /dashboard itself and
// a page that does not exist.
const USER_ROUTES = [
  '/dashboard',
  ...USER_MENU.flatMap((group) => group.items.map((item) => item.to)),
  '/no-such-page',
];
const ADMIN_ROUTES = ADMIN_MENU.map((item) => item.to);

interface Seeded {
  headers: { authorization: string };
  zoneId: string;
  seededZoneId: string;
  seededListId: string;
  list?: { id: number; list_id: string };
  ruleId?: string;
  recordId?: string;
}
const seeded = {} as Seeded;

async function api(request: APIRequestContext, method: string, url: string, data?: unknown) {
  const response = await request.fetch(url, { method, headers: seeded.headers, data: data as object });
  if (!response.ok()) throw new Error(`${method} ${url}: ${response.status()} ${await response.text()}`);
  return response.status() === 204 ? undefined : response.json();
}

test.beforeAll(async ({ request }) => {
  const login = await request.post('/api/login', { data: DEMO_USER });
  seeded.headers = { authorization: `Bearer ${(await login.json()).token}` };
  const zones = (await api(request, 'GET', '/api/cloudflare/zones')) as { id: string; domain: string }[];
  seeded.zoneId = zones.find((zone) => zone.domain === XSS_ZONE)!.id;
  seeded.seededZoneId = zones.find((zone) => zone.domain === 'guardian-demo.com')!.id;

  const lists = (await api(request, 'GET', '/api/cloudflare/banlists')) as {
    list_id: string;
    list_name: string;
  }[];
  seeded.seededListId = lists.find((list) => list.list_name === 'office_allowlist')!.list_id;
  seeded.list = (await api(request, 'POST', '/api/cloudflare/banlists', {
    account_name: 'Guardian Demo',
    list_name: XSS_LIST,
    kind: 'ip',
  })) as { id: number; list_id: string };
  await api(request, 'POST', `/api/cloudflare/banlists/${seeded.list.list_id}/items`, {
    ip: '198.51.100.77',
    comment: XSS,
  });

  const rules = (await api(request, 'POST', `/api/cloudflare/zones/${seeded.zoneId}/firewall-rules`, [
    {
      description: XSS,
      action: 'block',
      paused: false,
      filter: { expression: 'ip.src eq 198.51.100.77', paused: false },
    },
  ])) as { result: { id: string; description: string }[] };
  seeded.ruleId = rules.result.find((rule) => rule.description === XSS)!.id;

  const record = (await api(request, 'POST', `/api/cloudflare/zones/${seeded.zoneId}/dns`, {
    type: 'TXT',
    name: 'xss-probe',
    content: XSS,
    ttl: 1,
    proxied: false,
  })) as { id: string };
  seeded.recordId = record.id;
});

test.afterAll(async ({ request }) => {
  if (seeded.ruleId) {
    await request.delete(
      `/api/cloudflare/zones/${seeded.zoneId}/firewall-rules/${seeded.ruleId}?filter_id=${seeded.ruleId}`,
      { headers: seeded.headers },
    );
  }
  if (seeded.recordId)
    await request.delete(`/api/cloudflare/zones/${seeded.zoneId}/dns/${seeded.recordId}`, {
      headers: seeded.headers,
    });
  if (seeded.list)
    await request.delete(`/api/cloudflare/banlists/${seeded.list.id}`, { headers: seeded.headers });
});

/** Collects CSP violations (the DOM event and console reports) and uncaught errors of a page. */
async function watch(page: Page): Promise<string[]> {
  const problems: string[] = [];
  await page.addInitScript(() => {
    const record = (event: SecurityPolicyViolationEvent) =>
      ((window as unknown as { __csp: string[] }).__csp ??= []).push(
        `${event.violatedDirective} blocked ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`,
      );
    document.addEventListener('securitypolicyviolation', record, true);
  });
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy|Refused to (load|execute|apply|connect|frame)/i.test(message.text())) {
      problems.push(`console ${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

async function violations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
}

/** Visits a route (a full load, so the document's CSP applies afresh) and waits for it to settle. */
async function visit(page: Page, route: string, problems: string[]) {
  const response = await page.goto(route);
  expect(response?.headers()['content-security-policy'], route).toContain("script-src 'self'");
  await page.waitForLoadState('networkidle');
  await expect(page.locator('#root')).not.toBeEmpty();
  for (const violation of await violations(page)) problems.push(`${route}: ${violation}`);
}

/** Opens a dialog by its button, checks for violations, closes it. */
async function openDialog(page: Page, button: string, problems: string[], where: string) {
  await page.getByRole('button', { name: button, exact: true }).first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  // Once its fade-in has run, the dialog is drawn in full: anything it did against the policy is reported.
  await dialog.evaluate((element) =>
    Promise.all(element.getAnimations({ subtree: true }).map((animation) => animation.finished)),
  );
  for (const violation of await violations(page)) problems.push(`${where} (${button} dialog): ${violation}`);
  await page.keyboard.press('Escape');
}

test('every screen and dialog runs under the Content-Security-Policy without a violation', async ({
  page,
}) => {
  // Every screen and dialog of both menus: three times the run's bound.
  test.slow();
  const problems = await watch(page);

  await visit(page, '/login', problems);
  await signIn(page, DEMO_USER);
  for (const route of USER_ROUTES) await visit(page, route, problems);

  const dynamic = [
    [`/cloudflare/zones/${seeded.seededZoneId}/dns`, ['Add Record']],
    [`/cloudflare/zones/${seeded.seededZoneId}/rules`, ['Add Firewall Rule']],
    ['/cloudflare/accounts', ['Add Account']],
    ['/cloudflare/banlists', ['Add']],
    ['/cloudflare/zones', ['Add Zone']],
    // The two-factor dialog's QR code is inline SVG (img-src allows 'self' and data: only).
    ['/profile', ['Turn On']],
    [`/cloudflare/banlists/${seeded.seededListId}/items`, ['Add']],
  ] as [string, string[]][];
  for (const [route, dialogs] of dynamic) {
    await visit(page, route, problems);
    for (const dialog of dialogs) await openDialog(page, dialog, problems, route);
  }
  // The rules screen's second tab and its editor.
  await visit(page, `/cloudflare/zones/${seeded.seededZoneId}/rules`, problems);
  await page.getByRole('tab', { name: 'Page Rules' }).click();
  await expect(page.getByRole('table', { name: 'Page rules' })).toBeVisible();
  await openDialog(page, 'Add Page Rule', problems, 'page rules tab');

  // The administrator's screens.
  await page.evaluate(() => localStorage.removeItem('token'));
  await signIn(page, DEMO_ADMIN);
  for (const route of ADMIN_ROUTES) await visit(page, route, problems);

  expect(problems).toEqual([]);
});

/** The payload is on screen as text, no element came from it, and it did not run. */
async function expectInert(page: Page, problems: string[]) {
  await expect(page.getByText(XSS, { exact: true }).first()).toBeVisible();
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(problems).toEqual([]);
}

test('a firewall rule description from Cloudflare is shown as text and never runs', async ({ page }) => {
  const problems = await watch(page);
  await signIn(page, DEMO_USER);
  await visit(page, `/cloudflare/zones/${seeded.zoneId}/rules`, problems);
  await expect(page.getByRole('table', { name: 'Firewall rules' })).toBeVisible();
  await expectInert(page, problems);
  // Its delete dialog quotes the description: still text.
  const row = page.getByRole('table', { name: 'Firewall rules' }).getByRole('row').filter({ hasText: XSS });
  await row.getByRole('button', { name: /delete/i }).click();
  await expect(page.getByRole('dialog')).toContainText(`"${XSS}"`);
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  await page.keyboard.press('Escape');
});

test('a DNS TXT value from Cloudflare is shown as text and never runs', async ({ page }) => {
  const problems = await watch(page);
  await signIn(page, DEMO_USER);
  await visit(page, `/cloudflare/zones/${seeded.zoneId}/dns`, problems);
  await expectInert(page, problems);
});

test('a ban-list item comment from Cloudflare is shown as text and never runs', async ({ page }) => {
  const problems = await watch(page);
  await signIn(page, DEMO_USER);
  await visit(page, `/cloudflare/banlists/${seeded.list!.list_id}/items`, problems);
  await expectInert(page, problems);
});
