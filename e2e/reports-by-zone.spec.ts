import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './support/session';
import { DEMO_USER } from './support/stack';

/**
 * Issue 37: Reports > Traffic and Errors show each of the person's zones by name in a "By zone" table,
 * from the demo's analytics (the sandbox's generated traffic), with no WCAG 2 A/AA violation, on a
 * laptop and a phone. With SHOTS_DIR set, each page is saved as a screenshot at 1366 and 390 px.
 */
const SEEDED_ZONE = 'guardian-demo.com';
const SHOTS_DIR = process.env.SHOTS_DIR;
const WIDTHS = [
  { name: 'desktop', width: 1366, height: 800 },
  { name: 'phone', width: 390, height: 844 },
];

async function byZoneTable(page: Page, path: string) {
  await page.goto(path);
  const table = page.getByRole('table', { name: 'By zone' });
  await expect(table).toBeVisible();
  return table;
}

for (const path of ['/reports/traffic', '/reports/errors']) {
  test(`${path}: a By zone table names each zone with its figures`, async ({ page }) => {
    await signIn(page, DEMO_USER);
    for (const { name, width, height } of WIDTHS) {
      await page.setViewportSize({ width, height });
      const table = await byZoneTable(page, path);
      const row = table.getByRole('row').filter({ hasText: SEEDED_ZONE });
      await expect(row).toHaveCount(1);
      // The zone's count is a number, not an id or a blank.
      await expect(row).toContainText(/\d/);
      const { violations } = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa'])
        .include('main')
        .analyze();
      expect(violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
      // Nothing scrolls sideways on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      if (SHOTS_DIR) {
        mkdirSync(SHOTS_DIR, { recursive: true });
        await page.screenshot({
          path: `${SHOTS_DIR}/${path.split('/').at(-1)}-${name}.png`,
          fullPage: true,
        });
      }
    }
  });
}
