import { describe, expect, it } from 'vitest';
import { PROXIED_TTL_MESSAGE, dnsRecordInputSchema, isDnsHostname } from './dns-records.schemas';

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

// Issue 35 item 15: an MX priority typed as 'abc' was saved as 0, and a proxied record's TTL was
// silently replaced by Auto at Cloudflare.
describe('DNS record priority and TTL', () => {
  it.each(['abc', '', Number.NaN])('refuses an MX priority of %j, which is not a number', (priority) => {
    expect(problemOf({ type: 'MX', content: 'mail.example.com', priority })).toEqual([
      'Priority must be a whole number between 0 and 65535.',
    ]);
  });

  it("takes an MX record without a priority as Cloudflare's usual 10", () => {
    const parsed = dnsRecordInputSchema.parse({ type: 'MX', name: 'x', content: 'mail.example.com' });
    expect(parsed.priority).toBe(10);
  });

  it('refuses a TTL other than Auto on a proxied record, and takes it when not proxied', () => {
    for (const type of ['A', 'AAAA', 'CNAME']) {
      const content = { A: '192.0.2.1', AAAA: '2001:db8::1', CNAME: 'target.example.net' }[type];
      expect(problemOf({ type, content, proxied: true, ttl: 3600 })).toEqual([PROXIED_TTL_MESSAGE]);
      expect(problemOf({ type, content, proxied: true, ttl: 1 })).toBeUndefined();
      expect(problemOf({ type, content, proxied: false, ttl: 3600 })).toBeUndefined();
    }
    expect(PROXIED_TTL_MESSAGE).toBe(
      'A proxied record’s TTL is Auto (1): Cloudflare sets it. Send TTL 1, or turn Proxied off to choose a TTL.',
    );
  });

  it('does not hold a type that cannot be proxied to it: its proxied is sent as false', () => {
    const parsed = dnsRecordInputSchema.parse({
      type: 'TXT',
      name: 'x',
      content: 'hello',
      proxied: true,
      ttl: 3600,
    });
    expect(parsed).toMatchObject({ proxied: false, ttl: 3600 });
  });
});
