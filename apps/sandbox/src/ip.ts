/** IPv4/IPv6 addresses and CIDRs: parsing, Cloudflare's canonical text and list sort order. */
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

export interface ParsedIp {
  version: 4 | 6;
  /** Canonical text: lower-case, RFC 5952 compressed IPv6, `/prefix` only when narrower than one address. */
  canonical: string;
  prefix: number;
  isCidr: boolean;
  /** Ascending order of Cloudflare's lists: by address, then prefix; IPv4 (numbers) before IPv6 (strings). */
  sortKey: number | string;
}

const IPV4_TEXT = z.ipv4();
const IPV6_TEXT = z.ipv6();

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
