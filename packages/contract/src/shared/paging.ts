import { z } from 'zod';

/**
 * The paging fields of a listing's query, to spread into its `z.object`: `page` counts from 1;
 * `per_page` is `perPage` unless asked, and at most `maxPerPage`. Both come as text in the URL.
 */
export function pagingQueryFields(perPage: number, maxPerPage: number) {
  return {
    page: z.coerce
      .number({ error: 'page must be a number.' })
      .int('page must be a whole number.')
      .min(1, 'page must be 1 or more.')
      .max(1_000_000, 'page is too large.')
      .default(1),
    per_page: z.coerce
      .number({ error: 'per_page must be a number.' })
      .int('per_page must be a whole number.')
      .min(1, 'per_page must be 1 or more.')
      .max(maxPerPage, `per_page must be at most ${maxPerPage}.`)
      .default(perPage),
  };
}
