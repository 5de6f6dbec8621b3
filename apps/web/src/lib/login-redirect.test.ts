import { describe, expect, it } from 'vitest';
import { loginRedirect, returnPathOf, sessionEndedBy } from './login-redirect';

describe('returnPathOf', () => {
  it('returns to a page of this app, with its query', () => {
    expect(returnPathOf(loginRedirect({ pathname: '/cloudflare/zones', search: '?page=3' }, true))).toBe(
      '/cloudflare/zones?page=3',
    );
  });

  it.each(['//evil.example/x', '/\\evil.example', 'https://evil.example/', '/login', '/login?x=1', ''])(
    'never goes to %j: /dashboard instead',
    (from) => expect(returnPathOf({ from, sessionEnded: true })).toBe('/dashboard'),
  );

  it('goes to /dashboard without a redirect state', () => {
    expect(returnPathOf(null)).toBe('/dashboard');
    expect(returnPathOf({ from: 3 })).toBe('/dashboard');
    expect(sessionEndedBy(undefined)).toBe(false);
  });
});
