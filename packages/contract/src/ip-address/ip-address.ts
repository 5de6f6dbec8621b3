/**
 * IPv4 and IPv6 addresses and CIDRs, read as Cloudflare reads them, for the server (list items and
 * searches), the sandbox (Cloudflare's own checks) and the web (what a typed CIDR covers). The canonical
 * text is the one Cloudflare's lists store: IPv4 dotted quads, IPv6 lower-case and compressed (RFC 5952),
 * host bits past the prefix cleared, and no prefix on a single address (/32, /128).
 */
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

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
function parseAddress(text: string): Address | null {
  if (IPV4_TEXT.safeParse(text).success) return ipaddr.IPv4.parse(text);
  if (!IPV6_TEXT.safeParse(text).success) return null;
  // ipaddr.js reads the deprecated `::a.b.c.d` as the IPv4-mapped `::ffff:a.b.c.d`; `0::a.b.c.d` as written.
  return ipaddr.IPv6.parse(/^::[0-9.]+$/.test(text) ? `0${text}` : text);
}

export const isIpv4 = (text: string): boolean => parseAddress(text) instanceof ipaddr.IPv4;
export const isIpv6 = (text: string): boolean => parseAddress(text) instanceof ipaddr.IPv6;

/** An address, or an address and the prefix written after it (`/` and one to three digits). */
interface IpReading {
  address: Address;
  version: 4 | 6;
  /** 32 or 128: the prefix of a single address. */
  bits: number;
  /** As written, else `bits`; never past `bits`. */
  prefix: number;
  prefixText: string | undefined;
}

function readIp(text: string): IpReading | null {
  const [addressText = '', prefixText, extra] = text.split('/');
  if (extra !== undefined || (prefixText !== undefined && !/^[0-9]{1,3}$/.test(prefixText))) return null;
  const address = parseAddress(addressText);
  if (!address) return null;
  const version = address instanceof ipaddr.IPv4 ? 4 : 6;
  const bits = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  return prefix > bits ? null : { address, version, bits, prefix, prefixText };
}

/** `address`/`prefix` with every bit past the prefix cleared (the network) or set (the last address). */
function rangeEnd<A extends Address>(address: A, prefix: number, end: 'first' | 'last'): A {
  const mask = (address instanceof ipaddr.IPv4 ? ipaddr.IPv4 : ipaddr.IPv6)
    .subnetMaskFromPrefixLength(prefix)
    .toByteArray();
  return ipaddr.fromByteArray(
    address
      .toByteArray()
      .map((byte, index) =>
        end === 'first' ? byte & (mask[index] ?? 0) : byte | (~(mask[index] ?? 0) & 0xff),
      ),
  ) as A;
}

const textOf = (address: Address) =>
  address instanceof ipaddr.IPv6 ? address.toRFC5952String() : address.toString();

/** `text` with `/prefix` unless it is a single address. */
const withPrefix = (text: string, { prefix, bits }: IpReading) =>
  prefix === bits ? text : `${text}/${prefix}`;

const NOT_AN_IP = 'is not a valid IPv4 or IPv6 address or CIDR';

/** Why Cloudflare's IP lists refuse the prefix of `reading`, if they do. */
function listPrefixProblem({
  version,
  prefix,
  bits,
}: Pick<IpReading, 'version' | 'prefix' | 'bits'>): string | undefined {
  if (version === 4)
    return prefix < IPV4_MIN_PREFIX
      ? `IPv4 CIDR prefixes must be between /${IPV4_MIN_PREFIX} and /32`
      : undefined;
  return prefix !== bits && (prefix < IPV6_MIN_PREFIX || prefix > IPV6_MAX_PREFIX)
    ? `IPv6 CIDR prefixes must be between /${IPV6_MIN_PREFIX} and /${IPV6_MAX_PREFIX}`
    : undefined;
}

/** The canonical text of an IP list item (trimmed, host bits cleared), or the reason it is not one. */
export function normalizeIpItem(input: string): { value: string } | { error: string } {
  const text = input.trim();
  const reading = readIp(text);
  if (!reading) return { error: `"${text}" ${NOT_AN_IP}.` };
  const problem = listPrefixProblem(reading);
  if (problem) return { error: `${problem}.` };
  return { value: withPrefix(textOf(rangeEnd(reading.address, reading.prefix, 'first')), reading) };
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
  const text = input.trim();
  const reading = readIp(text);
  if (!reading) return { error: `"${text}" ${NOT_AN_IP}.` };
  const { version, prefix, bits } = reading;
  const value = withPrefix(textOf(rangeEnd(reading.address, prefix, 'first')), reading);
  return { value, family: version, prefix: prefix === bits ? undefined : prefix };
}

/** An address or CIDR as Cloudflare's API checks it: the sandbox answers with these. */
export interface ParsedIp {
  version: 4 | 6;
  /** Canonical text: lower-case, RFC 5952 compressed IPv6, `/prefix` only when narrower than one address. */
  canonical: string;
  prefix: number;
  isCidr: boolean;
  /** Ascending order of Cloudflare's lists: by address, then prefix; IPv4 (numbers) before IPv6 (strings). */
  sortKey: number | string;
}

/**
 * An address or CIDR as Cloudflare's API takes it, untrimmed; null when it is neither, when its prefix
 * has a leading zero (`/08`), or when a CIDR has bits set past its prefix (Cloudflare refuses what
 * `normalizeIpItem` widens).
 */
export function parseIpOrCidr(text: string): ParsedIp | null {
  const reading = readIp(text);
  if (!reading || (reading.prefixText !== undefined && reading.prefixText !== String(reading.prefix)))
    return null;
  const { address, version, prefix, bits } = reading;
  const bytes = address.toByteArray();
  const network = rangeEnd(address, prefix, 'first').toByteArray();
  if (bytes.some((byte, index) => byte !== network[index])) return null;

  const parsed = { canonical: withPrefix(textOf(address), reading), prefix, isCidr: prefix !== bits };
  if (version === 4)
    return { version, ...parsed, sortKey: bytes.reduce((sum, byte) => sum * 256 + byte, 0) * 64 + prefix };
  const fullHex = bytes.map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return { version, ...parsed, sortKey: `${fullHex}/${String(prefix).padStart(3, '0')}` };
}

/**
 * An item of an IP list as Cloudflare's WAF lists accept it: an IPv4 address, an IPv4 CIDR /8 to /32,
 * an IPv6 address, or an IPv6 CIDR /12 to /64. Returns the reason, in Cloudflare's words, when it is refused.
 */
export function parseListIp(text: string): ParsedIp | string {
  const parsed = parseIpOrCidr(text.trim());
  if (!parsed) return `"${text}" ${NOT_AN_IP}`;
  const problem = listPrefixProblem({ ...parsed, bits: parsed.version === 4 ? 32 : 128 });
  return problem ? `"${text}": ${problem}` : parsed;
}

/** What a typed CIDR bans, for the person to see before adding it. */
export interface CidrRange {
  /** The range Cloudflare stores: the network address and the prefix (`10.0.0.0/8`). */
  network: string;
  first: string;
  last: string;
  /** How many addresses it covers. */
  addresses: bigint;
  /** The person typed host bits (`10.1.2.3/8`): Cloudflare widens it to `network`. */
  widened: boolean;
  /** Wider than WIDE_PREFIX: adding it asks first. */
  wide: boolean;
}

/** Ranges wider than these (a /16 is 65,536 IPv4 addresses) are confirmed before they are banned. */
export const WIDE_PREFIX = { ipv4: 16, ipv6: 48 } as const;

/**
 * The range of a typed CIDR (trimmed, read as `normalizeIpItem` reads it), or undefined for anything
 * that is not one (a single address included).
 */
export function cidrRange(text: string): CidrRange | undefined {
  const typed = text.trim();
  const reading = typed.includes('/') ? readIp(typed) : null;
  if (!reading) return undefined;
  const { address, prefix, bits, version } = reading;
  const first = textOf(rangeEnd(address, prefix, 'first'));
  return {
    network: `${first}/${prefix}`,
    first,
    last: textOf(rangeEnd(address, prefix, 'last')),
    addresses: 2n ** BigInt(bits - prefix),
    widened: first !== textOf(address),
    wide: prefix < WIDE_PREFIX[version === 4 ? 'ipv4' : 'ipv6'],
  };
}

/** `10.1.2.3/8 covers 10.0.0.0 – 10.255.255.255 (16,777,216 addresses).` */
export function describeCidrRange(range: CidrRange): string {
  const count = range.addresses.toLocaleString('en-US');
  return `${range.network} covers ${range.first} – ${range.last} (${count} address${range.addresses === 1n ? '' : 'es'}).`;
}

/**
 * Whether two addresses or CIDRs (any prefix, host bits ignored) share an address: a ban of one bans
 * some of the other (a server's ban against its group's allowlist). Text that is neither never overlaps.
 */
export function ipRangesOverlap(a: string, b: string): boolean {
  const x = readIp(a.trim());
  const y = readIp(b.trim());
  if (!x || !y || x.version !== y.version) return false;
  // Two ranges overlap when they agree on the bits of the wider one's prefix.
  return (x.address as ipaddr.IPv4).match(y.address as ipaddr.IPv4, Math.min(x.prefix, y.prefix));
}
