import { expect, type Page } from '@playwright/test';

/**
 * Searches the zones page and waits for the answer: until it comes, the rows shown are the previous
 * page's, and a click on one of them may land on whatever replaces it (as the users search did on a
 * slow machine). The page shows a spinner from the first key until the asked rows are in.
 */
export async function searchZones(page: Page, text: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search zones' }).fill(text);
  await expect(page.getByRole('status').filter({ hasText: 'Loading zones...' })).toHaveCount(0);
}
