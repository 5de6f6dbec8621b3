import ipaddr from 'ipaddr.js';

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

/** The range of a typed CIDR, or undefined for anything that is not one (a single address included). */
export function cidrRange(text: string): CidrRange | undefined {
  const typed = text.trim();
  if (!typed.includes('/') || !ipaddr.isValidCIDR(typed)) return undefined;
  const [address, prefix] = ipaddr.parseCIDR(typed);
  const kind = address.kind();
  const family = kind === 'ipv4' ? ipaddr.IPv4 : ipaddr.IPv6;
  const first = family.networkAddressFromCIDR(typed);
  const last = family.broadcastAddressFromCIDR(typed);
  const bits = kind === 'ipv4' ? 32 : 128;
  return {
    network: `${first.toString()}/${prefix}`,
    first: first.toString(),
    last: last.toString(),
    addresses: 2n ** BigInt(bits - prefix),
    widened: first.toString() !== address.toString(),
    wide: prefix < WIDE_PREFIX[kind],
  };
}

/** `10.1.2.3/8 covers 10.0.0.0 – 10.255.255.255 (16,777,216 addresses).` */
export function describeCidrRange(range: CidrRange): string {
  const count = range.addresses.toLocaleString('en-US');
  return `${range.network} covers ${range.first} – ${range.last} (${count} address${range.addresses === 1n ? '' : 'es'}).`;
}
