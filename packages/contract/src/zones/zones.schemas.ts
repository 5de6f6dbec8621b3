import { z } from 'zod';
import { PAGE_SIZE } from '../shared/constants';
import { LOOKUP_ID_MAX } from '../shared/ids';
import { pagingQueryFields, searchQueryField, SORT_ORDERS } from '../shared/paging';

const DOMAIN_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
/** An alphabetic top-level domain, or an internationalised one in its punycode form. */
const TOP_LEVEL_DOMAIN = /^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * A name that could be registered: at least two labels of letters, digits and inner hyphens under an
 * alphabetic top-level domain (so no IP address, URL or single word). Whether the registry really
 * sells it is Cloudflare's to say.
 */
export function isRegistrableDomain(domain: string): boolean {
  if (domain.length > 253) return false;
  const labels = domain.split('.');
  if (labels.length < 2 || !TOP_LEVEL_DOMAIN.test(labels[labels.length - 1]!)) return false;
  return labels.every((label) => DOMAIN_LABEL.test(label));
}

/** POST /api/cloudflare/zones: add a domain to one of the person's Cloudflare accounts. */
export const addZoneRequestSchema = z.object({
  /** Cloudflare's account id (the Account ID column of the accounts screen). */
  account_id: z
    .string({ error: 'Account is required.' })
    .trim()
    .min(1, 'Account is required.')
    .max(LOOKUP_ID_MAX, 'The account id is too long.'),
  /** Trimmed and lower-cased; a trailing dot is dropped. */
  domain: z
    .string({ error: 'Domain name is required.' })
    .trim()
    .toLowerCase()
    .transform((domain) => domain.replace(/\.$/, ''))
    .pipe(
      z
        .string()
        .min(1, 'Domain name is required.')
        .max(253, 'Enter a domain name such as example.com.')
        .refine(isRegistrableDomain, 'Enter a domain name such as example.com.'),
    ),
});
export type AddZoneRequest = z.input<typeof addZoneRequestSchema>;

/** The answer to POST /api/cloudflare/zones, in Cloudflare's envelope as the spec reads it. */
export const addZoneResponseSchema = z.object({
  result: z.object({
    id: z.string(),
    name: z.string(),
    status: z.string(),
    /** The name servers to set at the domain's registrar. */
    name_servers: z.array(z.string()),
  }),
});
export type AddZoneResponse = z.infer<typeof addZoneResponseSchema>;

/** A row of GET /api/cloudflare/zones: the local mirror of a zone, with its account. */
export const zoneSchema = z.object({
  /** Cloudflare's zone id: the id of the DNS and rules screens. */
  id: z.string(),
  domain: z.string(),
  accountName: z.string(),
  /** Cloudflare's account id. */
  account_id: z.string(),
  /** Cloudflare's status: active, pending, initializing, moved... */
  status: z.string(),
  name_servers: z.array(z.string()),
});
export type Zone = z.infer<typeof zoneSchema>;

/** The columns the zones table sorts by (fields of `Zone`). */
export const ZONE_SORTS = ['domain', 'accountName', 'status'] as const;
export type ZoneSort = (typeof ZONE_SORTS)[number];
export const ZONES_MAX_PER_PAGE = 200;
/** The longest domain name: a longer search matches nothing. */
export const ZONE_SEARCH_MAX = 253;

/**
 * GET /api/cloudflare/zones/page. The search matches, case-insensitively, domains and account names
 * that contain it. Defaults: page 1, 50 per page, by domain ascending; rows equal in the sorted column
 * follow by domain, then as the mirror holds them, so the pages never overlap.
 */
export const zonesPageQuerySchema = z.object({
  search: searchQueryField(ZONE_SEARCH_MAX),
  ...pagingQueryFields(PAGE_SIZE.zones, ZONES_MAX_PER_PAGE),
  sort: z.enum(ZONE_SORTS, { error: `sort must be one of ${ZONE_SORTS.join(', ')}.` }).default('domain'),
  order: z.enum(SORT_ORDERS, { error: 'order must be asc or desc.' }).default('asc'),
});
export type ZonesQuery = z.input<typeof zonesPageQuerySchema>;
/** The query as the server has it, defaults filled in. */
export type ZonesPageQuery = z.output<typeof zonesPageQuerySchema>;

/** The answer of GET /api/cloudflare/zones/page: one page and the number of zones (or matches) in all pages. */
export const zonesPageSchema = z.object({
  zones: z.array(zoneSchema),
  totalZones: z.number().int(),
});
export type ZonesPage = z.infer<typeof zonesPageSchema>;

/** The answer to POST /api/cloudflare/zones/sync: how many zones the mirror now holds. */
export const syncZonesResponseSchema = z.object({ zones: z.number().int() });
export type SyncZonesResponse = z.infer<typeof syncZonesResponseSchema>;

/**
 * Path params of every /api/cloudflare/zones/{zone_id}... route. The zone is found in the person's
 * mirror before Cloudflare is called, so any id up to the bound is looked up (an unknown one is 404).
 */
export const zoneParamsSchema = z.object({
  zone_id: z.string().min(1, 'The zone id is required.').max(LOOKUP_ID_MAX, 'The zone id is too long.'),
});
