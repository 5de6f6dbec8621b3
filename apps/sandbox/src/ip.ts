/** IPv4/IPv6 addresses and CIDRs: parsing, Cloudflare's canonical text and list sort order. */

export interface ParsedIp {
  version: 4 | 6;
  /** Canonical text: lower-case, RFC 5952 compressed IPv6, `/prefix` only when narrower than one address. */
  canonical: string;
  prefix: number;
  isCidr: boolean;
  /** Ascending order of Cloudflare's lists: by address, then prefix; IPv4 (numbers) before IPv6 (strings). */
  sortKey: number | string;
}

const IPV4 = /^(0|[1-9][0-9]{0,2})\.(0|[1-9][0-9]{0,2})\.(0|[1-9][0-9]{0,2})\.(0|[1-9][0-9]{0,2})$/;

export function parseIpv4(text: string): number | null {
  const match = IPV4.exec(text);
  if (!match) return null;
  let value = 0;
  for (let i = 1; i <= 4; i++) {
    const octet = Number(match[i]);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

/** The eight 16-bit groups of an IPv6 address, or null. Accepts `::` and a trailing dotted IPv4. */
export function parseIpv6(text: string): number[] | null {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || text.length > 45) return null;
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parseGroups = (part: string): number[] | null => {
    if (part === '') return [];
    const groups: number[] = [];
    const pieces = part.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i] ?? '';
      if (i === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIpv4(piece);
        if (v4 === null) return null;
        groups.push(Math.floor(v4 / 65536), v4 % 65536);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(piece)) {
        groups.push(parseInt(piece, 16));
      } else {
        return null;
      }
    }
    return groups;
  };
  const head = parseGroups(halves[0] ?? '');
  const tail = halves.length === 2 ? parseGroups(halves[1] ?? '') : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

export function formatIpv6(groups: number[]): string {
  // RFC 5952: compress the longest run (at least two) of zero groups, the first one on a tie.
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

export const isIpv4 = (text: string): boolean => parseIpv4(text) !== null;
export const isIpv6 = (text: string): boolean => parseIpv6(text) !== null;

/** An address or CIDR; null when it is neither, or when a CIDR has bits set past its prefix. */
export function parseIpOrCidr(text: string): ParsedIp | null {
  const slash = text.indexOf('/');
  const address = slash < 0 ? text : text.slice(0, slash);
  const prefixText = slash < 0 ? null : text.slice(slash + 1);
  if (prefixText !== null && !/^(0|[1-9][0-9]{0,2})$/.test(prefixText)) return null;

  const v4 = parseIpv4(address);
  if (v4 !== null) {
    const prefix = prefixText === null ? 32 : Number(prefixText);
    if (prefix > 32) return null;
    const hostBits = 2 ** (32 - prefix);
    if (v4 % hostBits !== 0) return null;
    const base = address;
    return {
      version: 4,
      canonical: prefix === 32 ? base : `${base}/${prefix}`,
      prefix,
      isCidr: prefix !== 32,
      sortKey: v4 * 64 + prefix,
    };
  }

  const v6 = parseIpv6(address);
  if (v6 === null) return null;
  const prefix = prefixText === null ? 128 : Number(prefixText);
  if (prefix > 128) return null;
  for (let bit = prefix; bit < 128; bit++) {
    const group = v6[Math.floor(bit / 16)] ?? 0;
    if ((group >> (15 - (bit % 16))) & 1) return null;
  }
  const base = formatIpv6(v6);
  const fullHex = v6.map((group) => group.toString(16).padStart(4, '0')).join('');
  return {
    version: 6,
    canonical: prefix === 128 ? base : `${base}/${prefix}`,
    prefix,
    isCidr: prefix !== 128,
    sortKey: `${fullHex}/${String(prefix).padStart(3, '0')}`,
  };
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
