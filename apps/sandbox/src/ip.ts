/** IPv4/IPv6 addresses and CIDRs: parsing, Cloudflare's canonical text and list sort order. */
import ipaddr from 'ipaddr.js';

export interface ParsedIp {
  version: 4 | 6;
  /** Canonical text: lower-case, RFC 5952 compressed IPv6, `/prefix` only when narrower than one address. */
  canonical: string;
  prefix: number;
  isCidr: boolean;
  /** Ascending order of Cloudflare's lists: by address, then prefix; IPv4 (numbers) before IPv6 (strings). */
  sortKey: number | string;
}

const HEX_GROUP = /^[0-9a-f]{0,4}$/i;

/**
 * An address as Cloudflare reads one. ipaddr.js alone reads more than that (`10.1`, `0x0a.0.0.1`,
 * `010.0.0.1`, zone indexes, five-digit groups) and reads `::a.b.c.d` as `::ffff:a.b.c.d`, so IPv4
 * must be four decimal octets, IPv6 groups one to four hex digits, and a trailing dotted IPv4 becomes
 * its two groups before ipaddr.js reads the rest.
 */
function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const groups = text.split(':');
  // isValidFourPartDecimal throws and catches inside on IPv6 text: slow, so only dotted text goes to it.
  if (groups.length === 1) return ipaddr.IPv4.isValidFourPartDecimal(text) ? ipaddr.IPv4.parse(text) : null;
  const last = groups.at(-1) ?? '';
  if (last.includes('.')) {
    if (!ipaddr.IPv4.isValidFourPartDecimal(last)) return null;
    const [a = 0, b = 0, c = 0, d = 0] = ipaddr.IPv4.parse(last).octets;
    groups.splice(-1, 1, (a * 256 + b).toString(16), (c * 256 + d).toString(16));
  }
  if (!groups.every((group) => HEX_GROUP.test(group))) return null;
  const hex = groups.join(':');
  return ipaddr.IPv6.isValid(hex) ? ipaddr.IPv6.parse(hex) : null;
}

export const isIpv4 = (text: string): boolean => parseAddress(text) instanceof ipaddr.IPv4;
export const isIpv6 = (text: string): boolean => parseAddress(text) instanceof ipaddr.IPv6;

/** An address or CIDR; null when it is neither, or when a CIDR has bits set past its prefix. */
export function parseIpOrCidr(text: string): ParsedIp | null {
  const [addressText = '', prefixText, extra] = text.split('/');
  if (extra !== undefined || (prefixText !== undefined && !/^(0|[1-9][0-9]{0,2})$/.test(prefixText)))
    return null;
  const address = parseAddress(addressText);
  if (!address) return null;
  const v4 = address instanceof ipaddr.IPv4;
  const bits = v4 ? 32 : 128;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return null;
  const bytes = address.toByteArray();
  const mask = (v4 ? ipaddr.IPv4 : ipaddr.IPv6).subnetMaskFromPrefixLength(prefix).toByteArray();
  if (bytes.some((byte, index) => (byte & ~(mask[index] ?? 0)) !== 0)) return null;

  const base = address instanceof ipaddr.IPv4 ? address.toString() : address.toRFC5952String();
  const parsed = { canonical: prefix === bits ? base : `${base}/${prefix}`, prefix, isCidr: prefix !== bits };
  if (v4)
    return { version: 4, ...parsed, sortKey: bytes.reduce((sum, byte) => sum * 256 + byte, 0) * 64 + prefix };
  const fullHex = bytes.map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return { version: 6, ...parsed, sortKey: `${fullHex}/${String(prefix).padStart(3, '0')}` };
}

/**
 * An item of an IP list as Cloudflare's WAF lists accept it: an IPv4 address, an IPv4 CIDR /8 to /32,
 * an IPv6 address, or an IPv6 CIDR /12 to /64. Returns the reason when it is refused.
 */
export function parseListIp(text: string): ParsedIp | string {
  const parsed = parseIpOrCidr(text.trim());
  if (!parsed) return `"${text}" is not a valid IPv4 or IPv6 address or CIDR`;
  if (parsed.version === 4 && parsed.isCidr && parsed.prefix < 8)
    return `"${text}": IPv4 CIDR prefixes must be between /8 and /32`;
  if (parsed.version === 6 && parsed.isCidr && (parsed.prefix < 12 || parsed.prefix > 64))
    return `"${text}": IPv6 CIDR prefixes must be between /12 and /64`;
  return parsed;
}
