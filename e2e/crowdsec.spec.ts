import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { createServerGroup, registerServer } from './support/servers';
import { signIn } from './support/session';
import { DEMO_USER } from './support/stack';

/** Where the screens are photographed at 1366 and 390 px (SHOTS_DIR, else Playwright's results). */
const SHOTS = process.env.SHOTS_DIR ?? 'test-results';
const BOUNCER_KEY = 'e2e-bouncer-key-0123456789abcdef';

/** A CrowdSec Local API with one ban decision, for this key only (the real one is tested in apps/server). */
let lapi: Server;
let lapiUrl: string;
test.beforeAll(async () => {
  lapi = createServer((request, response) => {
    response.setHeader('Content-Type', 'application/json');
    if (request.headers['x-api-key'] !== BOUNCER_KEY) {
      response.statusCode = 403;
      response.end('{"message":"access forbidden"}');
      return;
    }
    const startup = request.url?.includes('startup=true');
    response.end(
      JSON.stringify({
        new: startup
          ? [
              {
                id: 1,
                type: 'ban',
                scope: 'Ip',
                value: '203.0.113.77',
                duration: '3h59m59s',
                scenario: 'crowdsecurity/http-probing',
                origin: 'crowdsec',
              },
            ]
          : null,
        deleted: null,
      }),
    );
  });
  await new Promise<void>((resolve) => lapi.listen(0, '127.0.0.1', resolve));
  lapiUrl = `http://127.0.0.1:${(lapi.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise((resolve) => lapi.close(resolve)));

test('a person connects a CrowdSec server to its Local API, pulls its decisions and sees them mirrored', async ({
  page,
}) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page, DEMO_USER);

  await createServerGroup(page, 'e2e crowdsec');
  const shown = await registerServer(page, {
    name: 'e2e-cs',
    group: 'e2e crowdsec',
    integration: 'CrowdSec',
  });
  await expect(shown.getByLabel('Install step')).toContainText('cscli bouncers add guardian');
  await page.keyboard.press('Escape');

  await page.goto('/servers/integrations');
  const table = page.getByRole('table', { name: 'CrowdSec servers and their Local APIs' });
  const row = table.getByRole('row').filter({ hasText: 'e2e-cs' });
  await expect(row).toContainText('Not connected');
  await row.getByRole('button', { name: 'Connect' }).click();
  const connect = page.getByRole('dialog', { name: 'Connect "e2e-cs" to CrowdSec' });
  await connect.getByLabel('Local API address').fill('ftp://lapi');
  await connect.getByRole('button', { name: 'Connect' }).click();
  await expect(connect.getByText('The address must be an http:// or https:// URL')).toBeVisible();
  await expect(connect.getByText('Enter the bouncer key that cscli bouncers add printed.')).toBeVisible();
  await connect.getByLabel('Local API address').fill(lapiUrl);
  await connect.getByLabel('Bouncer key').fill(BOUNCER_KEY);
  await page.screenshot({ path: `${SHOTS}/crowdsec-connect-1366.png` });
  await connect.getByRole('button', { name: 'Connect' }).click();
  await expect(connect).toBeHidden();
  await expect(row).toContainText(lapiUrl);
  await expect(row).toContainText(`key …${BOUNCER_KEY.slice(-4)}`);
  await expect(page.getByText(BOUNCER_KEY)).toHaveCount(0);

  await row.getByRole('button', { name: 'Pull now' }).click();
  // The interval's own pull may have taken the decision since Connect: then this one finds none new.
  await expect(
    page.getByText(
      /^e2e-cs: (1 new decisions, 1 banned|0 new decisions, 0 banned), 0 unbanned, 0 refused\.$/,
    ),
  ).toBeVisible({ timeout: 30_000 });
  // Mirrored 1, refused 0.
  await expect(row.getByRole('cell').nth(3)).toHaveText('1');
  await expect(row.getByRole('cell').nth(4)).toHaveText('0');
  await expect(row).toContainText('Pulling');

  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(violations.map((violation) => violation.id)).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/crowdsec-integrations-1366.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(row).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/crowdsec-integrations-390.png`, fullPage: true });
});
