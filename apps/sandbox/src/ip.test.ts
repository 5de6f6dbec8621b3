import { describe, expect, it } from 'vitest';
import { isIpv4, isIpv6, parseIpOrCidr, parseListIp } from './ip';

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
