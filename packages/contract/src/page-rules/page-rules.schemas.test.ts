import { describe, expect, it } from 'vitest';
import {
  addPageRuleRequestSchema,
  isForwardingDestination,
  isForwardingUrlValue,
} from './page-rules.schemas';

const forwardingRule = (url: string) => ({
  targets: [{ target: 'url', constraint: { operator: 'matches', value: 'example.com/old/*' } }],
  actions: [{ id: 'forwarding_url', value: { status_code: 301, url } }],
});

describe('forwarding destinations', () => {
  it.each([
    'https://www.example.com/',
    'http://example.com',
    'https://www.example.com/new/$1',
    'https://$1.example.com/$2?from=$1#top',
    'HTTPS://EXAMPLE.COM/X',
    'https://192.0.2.1:8443/x',
  ])('takes %s', (url) => {
    expect(isForwardingDestination(url)).toBe(true);
    expect(addPageRuleRequestSchema.safeParse(forwardingRule(url)).success).toBe(true);
  });

  it.each([
    'not a url',
    'www.example.com/new',
    '//www.example.com/new',
    'ftp://example.com/file',
    'https://',
    'https:///path',
    'https://exa mple.com/',
    'javascript:alert(1)',
  ])('refuses %s at the URL field', (url) => {
    expect(isForwardingDestination(url)).toBe(false);
    const result = addPageRuleRequestSchema.safeParse(forwardingRule(url));
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        path: ['actions', 0, 'value', 'url'],
        message:
          'The destination URL must be a full http:// or https:// address, such as https://www.example.com/$1.',
      }),
    ]);
  });

  it('still shows a forwarding value Cloudflare holds, whatever its URL', () => {
    expect(isForwardingUrlValue({ status_code: 302, url: 'example.com/odd' })).toBe(true);
    expect(isForwardingUrlValue({ status_code: 307, url: 'https://example.com' })).toBe(false);
  });
});
