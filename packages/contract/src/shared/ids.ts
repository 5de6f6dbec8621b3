import { z } from 'zod';

/** Cloudflare's ids (accounts, zones, lists, items, rules, page rules): 32 lowercase hex digits. */
export const CLOUDFLARE_ID_PATTERN = /^[0-9a-f]{32}$/;

/**
 * An id that goes into a Cloudflare URL: only Cloudflare's own form passes, so no `.`, `..` or `/`
 * can turn a call on one rule into a call on its zone.
 */
export function cloudflareIdSchema(what: string) {
  return z.string().regex(CLOUDFLARE_ID_PATTERN, `Not a ${what} id.`);
}

/**
 * An id that is only looked up (in the database, or in a list Cloudflare answered), never put in a
 * URL: any text up to this length, so an unknown one is simply not found.
 */
export const LOOKUP_ID_MAX = 64;

/**
 * The ids of a query's comma-separated list (`zone_ids=a,b`), each once, in the order given, blanks
 * and the spaces around each dropped: what a schema then checks one by one.
 */
export function commaSeparatedIds(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((id) => id.trim())
        .filter((id) => id !== ''),
    ),
  ];
}
