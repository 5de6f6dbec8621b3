/**
 * IP addresses and CIDRs in the canonical text Cloudflare's lists store: IPv4 dotted quads, IPv6
 * lower-case and compressed (RFC 5952), host bits past the prefix cleared, and no prefix on a single
 * address (/32, /128). Checking here gives the person a clear message before anything reaches Cloudflare.
 */
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

/** Cloudflare's lists accept IPv4 CIDRs from /8 and IPv6 CIDRs from /12 to /64. */
const IPV4_MIN_PREFIX = 8;
const IPV6_MIN_PREFIX = 12;
const IPV6_MAX_PREFIX = 64;

const IPV4_TEXT = z.ipv4();
const IPV6_TEXT = z.ipv6();
const IPV4_CIDR_TEXT = z.cidrv4();
const IPV6_CIDR_TEXT = z.cidrv6();

/**
 * Whether PostgreSQL's inet reads `text`: an IPv4 or IPv6 address or CIDR. Run for every item a sync
 * stores, so one check is picked by the text's shape (a union would try all four).
 */
export function isInetText(text: string): boolean {
  const cidr = text.includes('/');
  const check = text.includes(':') ? (cidr ? IPV6_CIDR_TEXT : IPV6_TEXT) : cidr ? IPV4_CIDR_TEXT : IPV4_TEXT;
  return check.safeParse(text).success;
}

/**
 * An address as Cloudflare reads one. zod checks the text (IPv4 as four decimal octets, IPv6 groups
 * of one to four hex digits, no zone index), which ipaddr.js alone reads loosely (`10.1`, `010.0.0.1`
 * in octal, `fe80::1%eth0`), then ipaddr.js reads it.
 */
function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (IPV4_TEXT.safeParse(text).success) return ipaddr.IPv4.parse(text);
  if (!IPV6_TEXT.safeParse(text).success) return null;
  // ipaddr.js reads the deprecated `::a.b.c.d` as the IPv4-mapped `::ffff:a.b.c.d`; `0::a.b.c.d` as written.
  return ipaddr.IPv6.parse(/^::[0-9.]+$/.test(text) ? `0${text}` : text);
}

/** The network of `address`/`prefix`: every bit past the prefix cleared. */
function networkOf<A extends ipaddr.IPv4 | ipaddr.IPv6>(address: A, prefix: number): A {
  const mask = (address instanceof ipaddr.IPv4 ? ipaddr.IPv4 : ipaddr.IPv6).subnetMaskFromPrefixLength(
    prefix,
  );
  const maskBytes = mask.toByteArray();
  return ipaddr.fromByteArray(
    address.toByteArray().map((byte, index) => byte & (maskBytes[index] ?? 0)),
  ) as A;
}

const invalidIp = (text: string) => ({ error: `"${text}" is not a valid IPv4 or IPv6 address or CIDR.` });

/**
 * The address of `input` (trimmed) and its prefix as written (`/` and one to three digits, or none),
 * or the message for text that is neither an address nor an address/prefix.
 */
function readAddress(
  input: string,
): { text: string; address: ipaddr.IPv4 | ipaddr.IPv6; prefixText: string | undefined } | { error: string } {
  const text = input.trim();
  const [addressText = '', prefixText, extra] = text.split('/');
  if (extra !== undefined || (prefixText !== undefined && !/^[0-9]{1,3}$/.test(prefixText)))
    return invalidIp(text);
  const address = parseAddress(addressText);
  return address ? { text, address, prefixText } : invalidIp(text);
}

/** The canonical text of an IP list item, or the reason it is not one. */
export function normalizeIpItem(input: string): { value: string } | { error: string } {
  const read = readAddress(input);
  if ('error' in read) return read;
  const { text, address, prefixText } = read;
  const invalid = invalidIp(text);

  if (address instanceof ipaddr.IPv4) {
    const prefix = prefixText === undefined ? 32 : Number(prefixText);
    if (prefix > 32) return invalid;
    if (prefix < IPV4_MIN_PREFIX)
      return { error: `IPv4 CIDR prefixes must be between /${IPV4_MIN_PREFIX} and /32.` };
    const network = networkOf(address, prefix).toString();
    return { value: prefix === 32 ? network : `${network}/${prefix}` };
  }

  const prefix = prefixText === undefined ? 128 : Number(prefixText);
  if (prefix > 128) return invalid;
  if (prefix !== 128 && (prefix < IPV6_MIN_PREFIX || prefix > IPV6_MAX_PREFIX)) {
    return { error: `IPv6 CIDR prefixes must be between /${IPV6_MIN_PREFIX} and /${IPV6_MAX_PREFIX}.` };
  }
  const network = networkOf(address, prefix).toRFC5952String();
  return { value: prefix === 128 ? network : `${network}/${prefix}` };
}

/**
 * An address or CIDR to search for ("Where is this address?"), read by the same rules as an item
 * (`normalizeIpItem`: the text, host bits cleared, IPv6 as RFC 5952) but with any prefix, /0 to /32 or
 * /128: a search may be wider or narrower than anything Cloudflare stores. `prefix` is undefined for a
 * single address (/32, /128).
 */
export function parseIpSearch(
  input: string,
): { value: string; family: 4 | 6; prefix: number | undefined } | { error: string } {
  const read = readAddress(input);
  if ('error' in read) return read;
  const { text, address, prefixText } = read;
  const family = address instanceof ipaddr.IPv4 ? 4 : 6;
  const bits = family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return invalidIp(text);
  const network = networkOf(address, prefix);
  const canonical = network instanceof ipaddr.IPv6 ? network.toRFC5952String() : network.toString();
  return prefix === bits
    ? { value: canonical, family, prefix: undefined }
    : { value: `${canonical}/${prefix}`, family, prefix };
}
