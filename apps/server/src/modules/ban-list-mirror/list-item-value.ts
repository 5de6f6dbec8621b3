import { HOSTNAME_NOT_AN_ADDRESS, isIpAddress, normalizeIpItem, type BanListKind } from '@guardian/contract';
import type Cloudflare from 'cloudflare';

type CloudflareItem = Cloudflare.Rules.Lists.ItemListResponse;
type CloudflareItemInput = Cloudflare.Rules.Lists.ItemCreateParams['body'][number];

/** An item the person typed, checked for the list's kind. */
export interface ItemValue {
  /** What the mirror stores and the screen shows in the "IP Address" column. */
  value: string;
  /** What makes two items the same item at Cloudflare (its upsert key), to refuse duplicates. */
  key: string;
  /** Cloudflare's `search` that finds the item (ip: prefix; hostname, redirect: substring; asn: exact). */
  search: string;
  /** The item as Cloudflare's write takes it, without the comment. */
  input: CloudflareItemInput;
}

const HOSTNAME = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const ASN_MAX = 4_294_967_295;
/** How a redirect is written in the value column: `source -> target`. */
const REDIRECT_ARROW = ' -> ';

function parseRedirect(text: string): ItemValue | string {
  const [source, target, extra] = text.split(/\s*->\s*|\s+/).filter(Boolean);
  if (!source || !target || extra !== undefined) {
    return 'Enter a redirect as "source -> target", e.g. example.com/old -> https://example.com/new.';
  }
  if (!/^https?:\/\/\S+$/i.test(target))
    return `The redirect target "${target}" must be an http:// or https:// URL.`;
  return {
    value: `${source}${REDIRECT_ARROW}${target}`,
    key: source.toLowerCase(),
    search: source,
    input: { redirect: { source_url: source, target_url: target } },
  };
}

/** Checks and normalises what the person typed for an item of a `kind` list; a string is the reason it is refused. */
export function parseItemValue(kind: BanListKind, text: string): ItemValue | string {
  const trimmed = text.trim();
  switch (kind) {
    case 'ip': {
      const ip = normalizeIpItem(trimmed);
      if ('error' in ip) return ip.error;
      return { value: ip.value, key: ip.value, search: ip.value, input: { ip: ip.value } };
    }
    case 'hostname': {
      const hostname = trimmed.toLowerCase();
      if (isIpAddress(hostname)) return HOSTNAME_NOT_AN_ADDRESS;
      if (hostname.length > 253 || !HOSTNAME.test(hostname)) return `"${trimmed}" is not a valid hostname.`;
      return {
        value: hostname,
        key: hostname,
        search: hostname,
        input: { hostname: { url_hostname: hostname } },
      };
    }
    case 'asn': {
      const digits = /^(?:as)?\s*([0-9]{1,10})$/i.exec(trimmed)?.[1];
      const asn = digits === undefined ? NaN : Number(digits);
      if (!Number.isInteger(asn) || asn > ASN_MAX) return `"${trimmed}" is not a valid AS number.`;
      return { value: String(asn), key: String(asn), search: String(asn), input: { asn } };
    }
    case 'redirect':
      return parseRedirect(trimmed);
  }
}

/** The value column of an item as Cloudflare answers it; matches `parseItemValue(...).value`. */
export function valueOfCloudflareItem(item: CloudflareItem): string {
  if ('ip' in item) return item.ip;
  if ('hostname' in item) return item.hostname.url_hostname;
  if ('asn' in item) return String(item.asn);
  return `${item.redirect.source_url}${REDIRECT_ARROW}${item.redirect.target_url}`;
}

/** The upsert key of an item as Cloudflare answers it; matches `parseItemValue(...).key`. */
export function keyOfCloudflareItem(item: CloudflareItem): string {
  if ('redirect' in item) return item.redirect.source_url.toLowerCase();
  return valueOfCloudflareItem(item).toLowerCase();
}

/** The start of the mirror values of items with the same key (a redirect's target follows its source). */
export function mirrorPrefixOf(item: ItemValue): string {
  const arrow = item.value.indexOf(REDIRECT_ARROW);
  return arrow < 0 ? item.value : item.value.slice(0, arrow + REDIRECT_ARROW.length);
}

/** The key of a value stored in the mirror; matches `parseItemValue(...).key`. */
export function keyOfMirrorValue(kind: BanListKind, value: string): string {
  return (kind === 'redirect' ? value.split(REDIRECT_ARROW)[0]! : value).toLowerCase();
}

/**
 * `keyOfMirrorValue` in SQL, of a column of mirror values: the same for every kind, as only a
 * redirect's value holds the arrow.
 */
export const mirrorKeySql = (column: string) => `lower(split_part(${column}, '${REDIRECT_ARROW}', 1))`;
