import { beforeEach, describe, expect, it } from 'vitest';
import { setToken } from './auth-token';
import { loginRedirect, returnPathOf, sessionEndedBy } from './login-redirect';
import { sessionToken } from '../test/token';

beforeEach(() => setToken(sessionToken({ userId: 1 })));

describe('returnPathOf', () => {
  it('returns to a page of this app, with its query', () => {
    expect(returnPathOf(loginRedirect({ pathname: '/cloudflare/zones', search: '?page=3' }, true, '1'))).toBe(
      '/cloudflare/zones?page=3',
    );
  });

  it('returns there only when the person who signed in is the one whose session ended', () => {
    const zones = loginRedirect({ pathname: '/cloudflare/zones', search: '' }, true, '1');
    setToken(sessionToken({ userId: 2 }));
    expect(returnPathOf(zones)).toBe('/dashboard');
    setToken(sessionToken({ userId: 1 }));
    expect(returnPathOf(zones)).toBe('/cloudflare/zones');
  });

  it("returns a visitor's deep link to whoever signs in (the page was nobody's)", () => {
    expect(returnPathOf(loginRedirect({ pathname: '/cloudflare/zones', search: '' }, false, null))).toBe(
      '/cloudflare/zones',
    );
  });

  it.each(['//evil.example/x', '/\\evil.example', 'https://evil.example/', '/login', '/login?x=1', ''])(
    'never goes to %j: /dashboard instead',
    (from) => expect(returnPathOf({ from, sessionEnded: true, owner: '1' })).toBe('/dashboard'),
  );

  it('goes to /dashboard without a redirect state', () => {
    expect(returnPathOf(null)).toBe('/dashboard');
    expect(returnPathOf({ from: 3 })).toBe('/dashboard');
    expect(returnPathOf({ from: '/cloudflare/zones', sessionEnded: true })).toBe('/dashboard');
    expect(sessionEndedBy(undefined)).toBe(false);
  });
});
