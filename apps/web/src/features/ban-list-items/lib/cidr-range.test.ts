import { describe, expect, it } from 'vitest';
import { cidrRange, describeCidrRange } from './cidr-range';

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
});
