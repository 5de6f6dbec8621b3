import { describe, expect, it } from 'vitest';
import {
  cidrRange,
  describeCidrRange,
  isIpv4,
  isIpv6,
  normalizeIpItem,
  parseIpOrCidr,
  parseListIp,
} from './ip-address';

describe('normalizeIpItem', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    [' 192.0.2.1 ', '192.0.2.1'],
    ['192.0.2.1/32', '192.0.2.1'],
    ['192.0.2.77/24', '192.0.2.0/24'],
    ['10.255.255.255/8', '10.0.0.0/8'],
    ['2001:DB8::1', '2001:db8::1'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:db8::1/128', '2001:db8::1'],
    ['2001:db8:1234:5678::/32', '2001:db8::/32'],
    ['::ffff:192.0.2.1', '::ffff:c000:201'],
    ['::', '::'],
    // IPv4-compatible, not IPv4-mapped (ipaddr.js alone reads it as ::ffff:c000:201).
    ['::192.0.2.1', '::c000:201'],
  ])('%s -> %s', (input, value) => {
    expect(normalizeIpItem(input)).toEqual({ value });
  });

  it.each([
    ['', 'is not a valid'],
    ['192.0.2', 'is not a valid'],
    ['192.0.2.256', 'is not a valid'],
    ['192.0.2.01', 'is not a valid'],
    ['192.0.2.1/33', 'is not a valid'],
    ['192.0.2.1/x', 'is not a valid'],
    ['192.0.2.1/24/1', 'is not a valid'],
    ['10.0.0.0/7', 'IPv4 CIDR prefixes must be between /8 and /32.'],
    ['2001:db8::/11', 'IPv6 CIDR prefixes must be between /12 and /64.'],
    ['2001:db8::/65', 'IPv6 CIDR prefixes must be between /12 and /64.'],
    ['2001:db8:::1', 'is not a valid'],
    ['1:2:3:4:5:6:7:8:9', 'is not a valid'],
    ['host.example.com', 'is not a valid'],
    // What ipaddr.js alone reads loosely: short, hex and octal IPv4, zone indexes, five-digit groups.
    ['10.1', 'is not a valid'],
    ['0x0a.0.0.1', 'is not a valid'],
    ['010.0.0.1', 'is not a valid'],
    ['::ffff:010.0.0.1', 'is not a valid'],
    ['fe80::1%eth0', 'is not a valid'],
    ['2001:00db8::1', 'is not a valid'],
  ])('refuses %j', (input, message) => {
    const result = normalizeIpItem(input);
    expect('error' in result && result.error).toContain(message);
  });
});

describe('IP parsing', () => {
  it('accepts IPv4 addresses and CIDRs, refusing leading zeros, big octets and host bits', () => {
    expect(parseIpOrCidr('192.0.2.1')).toMatchObject({ version: 4, canonical: '192.0.2.1', isCidr: false });
    expect(parseIpOrCidr('10.0.0.0/8')).toMatchObject({ canonical: '10.0.0.0/8', prefix: 8, isCidr: true });
    expect(parseIpOrCidr('192.0.2.1/32')?.canonical).toBe('192.0.2.1');
    expect(parseIpOrCidr('10.0.0.1/8')).toBeNull();
    expect(parseIpOrCidr('01.2.3.4')).toBeNull();
    expect(parseIpOrCidr('1.2.3.256')).toBeNull();
    expect(parseIpOrCidr('1.2.3')).toBeNull();
    expect(parseIpOrCidr('1.2.3.4/33')).toBeNull();
  });

  it('reads IPv6 in every notation and writes it as RFC 5952', () => {
    expect(parseIpOrCidr('2001:db8::1')?.sortKey).toBe('20010db8000000000000000000000001/128');
    expect(parseIpOrCidr('::ffff:192.0.2.1')?.canonical).toBe('::ffff:c000:201');
    expect(parseIpOrCidr('1:2:3:4:5:6:7:8:9')).toBeNull();
    expect(parseIpOrCidr('1::2::3')).toBeNull();
    expect(parseIpOrCidr('2001:db8:0:0:1:0:0:1')?.canonical).toBe('2001:db8::1:0:0:1');
    expect(parseIpOrCidr('2001:0DB8:0000:0000:0000:0000:0000:0000/32')?.canonical).toBe('2001:db8::/32');
    expect(parseIpOrCidr('2001:db8::1/32')).toBeNull();
  });

  it('refuses what ipaddr.js alone would read loosely', () => {
    // ::a.b.c.d is 0:0:0:0:0:0:a.b:c.d, not the IPv4-mapped ::ffff:a.b.c.d ipaddr.js makes of it.
    expect(parseIpOrCidr('::192.0.2.1')?.canonical).toBe('::c000:201');
    for (const loose of [
      '10.1',
      '0x0a.0.0.1',
      '010.0.0.1',
      '::ffff:010.0.0.1',
      '::ffff:0x0a.0.0.1',
      'fe80::1%eth0',
      '2001:00db8::1',
    ]) {
      expect(parseIpOrCidr(loose), loose).toBeNull();
    }
    expect([isIpv4('192.0.2.1'), isIpv6('192.0.2.1'), isIpv4('2001:db8::1'), isIpv6('2001:db8::1')]).toEqual([
      true,
      false,
      false,
      true,
    ]);
  });

  it('applies the prefix ranges of Cloudflare IP lists', () => {
    expect(typeof parseListIp('10.0.0.0/7')).toBe('string');
    expect(parseListIp('10.0.0.0/8')).toMatchObject({ canonical: '10.0.0.0/8' });
    expect(typeof parseListIp('2001::/8')).toBe('string');
    expect(parseListIp('2001:db8::/32')).toMatchObject({ canonical: '2001:db8::/32' });
    expect(typeof parseListIp('2001:db8::/96')).toBe('string');
    expect(parseListIp('2001:db8::1')).toMatchObject({ version: 6, isCidr: false });
    expect(typeof parseListIp('not-an-ip')).toBe('string');
  });

  it('orders by address then prefix, IPv4 before IPv6', () => {
    const keys = ['2001:db8::/32', '10.0.0.1', '10.0.0.0/8', '10.0.0.0/24', '9.255.255.255'].map(
      (ip) => (parseIpOrCidr(ip) as { sortKey: number | string }).sortKey,
    );
    const sorted = [...keys].sort((a, b) =>
      typeof a === 'number'
        ? typeof b === 'number'
          ? a - b
          : -1
        : typeof b === 'number'
          ? 1
          : a < b
            ? -1
            : 1,
    );
    expect(sorted).toEqual([keys[4], keys[2], keys[3], keys[1], keys[0]]);
  });
});

describe('cidrRange', () => {
  it('says what a typed CIDR covers, and that host bits widen it', () => {
    const range = cidrRange('10.1.2.3/8')!;
    expect(range).toMatchObject({ network: '10.0.0.0/8', widened: true, wide: true, addresses: 16_777_216n });
    expect(describeCidrRange(range)).toBe(
      '10.0.0.0/8 covers 10.0.0.0 – 10.255.255.255 (16,777,216 addresses).',
    );
  });

  it('asks only for ranges wider than /16 (IPv4) or /48 (IPv6)', () => {
    expect(cidrRange('198.51.100.0/24')).toMatchObject({ widened: false, wide: false, addresses: 256n });
    expect(cidrRange('172.16.0.0/16')?.wide).toBe(false);
    expect(cidrRange('172.16.0.0/15')?.wide).toBe(true);
    expect(cidrRange('2001:db8::/48')?.wide).toBe(false);
    expect(cidrRange('2001:db8::/32')?.wide).toBe(true);
  });

  it('is undefined for a single address or anything else', () => {
    expect(cidrRange('192.0.2.1')).toBeUndefined();
    expect(cidrRange('not/a-cidr')).toBeUndefined();
    expect(cidrRange('10.0.0.0/33')).toBeUndefined();
  });

  it('reads the text as an item is read, so it describes what the server will add', () => {
    expect(cidrRange(' 2001:DB8::1/48 ')).toMatchObject({
      network: '2001:db8::/48',
      last: '2001:db8:0:ffff:ffff:ffff:ffff:ffff',
      widened: true,
    });
    // IPv4-compatible, as normalizeIpItem reads it (ipaddr.js alone reads ::ffff:c000:201).
    expect(cidrRange('::192.0.2.1/120')?.network).toBe('::c000:200/120');
    for (const loose of ['10.1/8', '010.0.0.0/8', '0x0a.0.0.0/8', 'fe80::1%eth0/64']) {
      expect(cidrRange(loose), loose).toBeUndefined();
    }
  });
});
