import { describe, expect, it } from 'vitest';
import { dnsRecordInputSchema, isDnsHostname } from './dns';

const problemOf = (record: object) =>
  dnsRecordInputSchema.safeParse({ name: 'x', ...record }).error?.issues.map((issue) => issue.message);

describe('DNS record targets', () => {
  it.each(['CNAME', 'MX', 'NS'])('refuses an IPv4 or IPv6 address as the %s target', (type) => {
    for (const content of ['192.0.2.1', '2001:db8::1']) {
      expect(problemOf({ type, content, priority: 10 })).toEqual([
        expect.stringContaining('not an IP address'),
      ]);
    }
  });

  it('takes host names, also all-numeric labels that are not an address', () => {
    expect(problemOf({ type: 'CNAME', content: 'target.example.net' })).toBeUndefined();
    expect(problemOf({ type: 'MX', content: 'mail.example.com', priority: 10 })).toBeUndefined();
    expect(isDnsHostname('123.example.com')).toBe(true);
    expect(isDnsHostname('1.2.3.4')).toBe(false);
    expect(isDnsHostname('1.2.3.4.')).toBe(false);
  });
});
