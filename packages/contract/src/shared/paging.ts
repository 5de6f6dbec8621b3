import { z } from 'zod';

/** The directions of a sorted listing's `order`. */
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/**
 * A listing's search, as its query takes it: trimmed, empty unless asked, and at most `max` characters
 * (the longest value it can match).
 */
export const searchQueryField = (max: number) =>
  z.string().trim().max(max, `The search must be at most ${max} characters.`).default('');

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

/**
 * The cursor paging fields of a newest-first listing, to spread into its `z.object`: `before` is the
 * previous page's `next_cursor`; `limit` is 25 unless asked, and at most `maxLimit`.
 */
export function cursorQueryFields(maxLimit: number) {
  return {
    /** The page after this one (the previous page's `next_cursor`). */
    before: z.coerce
      .number({ error: 'The cursor must be a number.' })
      .int('The cursor must be a whole number.')
      .positive('The cursor must be a positive number.')
      .max(Number.MAX_SAFE_INTEGER, 'The cursor is too large.')
      .optional(),
    limit: z.coerce
      .number({ error: 'The limit must be a number.' })
      .int('The limit must be a whole number.')
      .min(1, 'The limit must be at least 1.')
      .max(maxLimit, `The limit must be at most ${maxLimit}.`)
      .default(25),
  };
}
