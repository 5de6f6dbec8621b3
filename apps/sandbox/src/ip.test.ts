import { describe, expect, it } from 'vitest';
import { formatIpv6, parseIpOrCidr, parseIpv6, parseListIp } from './ip';

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
    expect(parseIpv6('2001:db8::1')).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6('::ffff:192.0.2.1')).toEqual([0, 0, 0, 0, 0, 0xffff, 0xc000, 0x201]);
    expect(parseIpv6('1:2:3:4:5:6:7:8:9')).toBeNull();
    expect(parseIpv6('1::2::3')).toBeNull();
    expect(formatIpv6([0x2001, 0xdb8, 0, 0, 1, 0, 0, 1])).toBe('2001:db8::1:0:0:1');
    expect(parseIpOrCidr('2001:0DB8:0000:0000:0000:0000:0000:0000/32')?.canonical).toBe('2001:db8::/32');
    expect(parseIpOrCidr('2001:db8::1/32')).toBeNull();
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
