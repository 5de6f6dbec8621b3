import { describe, expect, it } from 'vitest';
import { normalizeIpItem } from './ip-address';

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
