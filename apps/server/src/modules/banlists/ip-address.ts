/**
 * IP addresses and CIDRs in the canonical text Cloudflare's lists store: IPv4 dotted quads, IPv6
 * lower-case and compressed (RFC 5952), host bits past the prefix cleared, and no prefix on a single
 * address (/32, /128). Checking here gives the person a clear message before anything reaches Cloudflare.
 */

const IPV4_PART = /^(0|[1-9][0-9]{0,2})$/;

/** Cloudflare's lists accept IPv4 CIDRs from /8 and IPv6 CIDRs from /12 to /64. */
const IPV4_MIN_PREFIX = 8;
const IPV6_MIN_PREFIX = 12;
const IPV6_MAX_PREFIX = 64;

function parseIpv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((part) => IPV4_PART.test(part))) return null;
  const octets = parts.map(Number);
  return octets.every((octet) => octet <= 255) ? octets : null;
}

/** The eight 16-bit groups of an IPv6 address; `::` and a trailing dotted IPv4 part are accepted. */
function parseIpv6(text: string): number[] | null {
  if (!/^[0-9a-f:.]+$/i.test(text)) return null;
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (part: string): number[] | null => {
    if (part === '') return [];
    const pieces = part.split(':');
    const groups: number[] = [];
    for (const [index, piece] of pieces.entries()) {
      if (index === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIpv4(piece);
        if (!v4) return null;
        groups.push(v4[0]! * 256 + v4[1]!, v4[2]! * 256 + v4[3]!);
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) {
        groups.push(parseInt(piece, 16));
      } else {
        return null;
      }
    }
    return groups;
  };
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  return missing >= 1 ? [...head, ...new Array<number>(missing).fill(0), ...tail] : null;
}

/** RFC 5952: lower-case hex, the longest run of two or more zero groups (the first on a tie) as `::`. */
function formatIpv6(groups: number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8;) {
    if (groups[start] !== 0) {
      start++;
      continue;
    }
    let end = start;
    while (end < 8 && groups[end] === 0) end++;
    if (end - start > bestLength) {
      bestStart = start;
      bestLength = end - start;
    }
    start = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** Clears every bit past `prefix` in big-endian `units` of `bitsPerUnit` bits. */
function clearHostBits(units: number[], bitsPerUnit: number, prefix: number): number[] {
  return units.map((unit, index) => {
    const kept = Math.min(Math.max(prefix - index * bitsPerUnit, 0), bitsPerUnit);
    const mask = kept === 0 ? 0 : (0xffff << (bitsPerUnit - kept)) & ((1 << bitsPerUnit) - 1);
    return unit & mask;
  });
}

/** The canonical text of an IP list item, or the reason it is not one. */
export function normalizeIpItem(input: string): { value: string } | { error: string } {
  const text = input.trim();
  const invalid = { error: `"${text}" is not a valid IPv4 or IPv6 address or CIDR.` };
  const [address = '', prefixText, extra] = text.split('/');
  if (extra !== undefined || (prefixText !== undefined && !/^[0-9]{1,3}$/.test(prefixText))) return invalid;

  const v4 = parseIpv4(address);
  if (v4) {
    const prefix = prefixText === undefined ? 32 : Number(prefixText);
    if (prefix > 32) return invalid;
    if (prefix < IPV4_MIN_PREFIX)
      return { error: `IPv4 CIDR prefixes must be between /${IPV4_MIN_PREFIX} and /32.` };
    const network = clearHostBits(v4, 8, prefix).join('.');
    return { value: prefix === 32 ? network : `${network}/${prefix}` };
  }

  const v6 = parseIpv6(address);
  if (v6) {
    const prefix = prefixText === undefined ? 128 : Number(prefixText);
    if (prefix > 128) return invalid;
    if (prefix !== 128 && (prefix < IPV6_MIN_PREFIX || prefix > IPV6_MAX_PREFIX)) {
      return { error: `IPv6 CIDR prefixes must be between /${IPV6_MIN_PREFIX} and /${IPV6_MAX_PREFIX}.` };
    }
    const network = formatIpv6(clearHostBits(v6, 16, prefix));
    return { value: prefix === 128 ? network : `${network}/${prefix}` };
  }
  return invalid;
}
