import type { Page } from '@playwright/test';

/** The rows of the IP Lists screen's answer: one per list that holds the search. */
export const listsHoldingTheSearch = (page: Page) =>
  page
    .getByRole('table', { name: 'Lists holding the search' })
    .getByRole('row')
    .filter({ hasNot: page.getByRole('columnheader') });
