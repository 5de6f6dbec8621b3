import { describe, expect, it } from 'vitest';
import { makeToken, sessionToken } from '../test/token';
import {
  clearToken,
  decodeToken,
  getToken,
  NO_LEVEL,
  readSession,
  setToken,
  TOKEN_STORAGE_KEY,
} from './auth-token';

const NOW_MS = Date.UTC(2030, 0, 1);
const NOW_S = NOW_MS / 1000;

describe('token storage', () => {
  it('keeps the token in local storage under "token"', () => {
    expect(TOKEN_STORAGE_KEY).toBe('token');
    setToken('abc');
    expect(localStorage.getItem('token')).toBe('abc');
    expect(getToken()).toBe('abc');
    clearToken();
    expect(getToken()).toBeNull();
  });
});

describe('decodeToken', () => {
  it('reads exp, level and email without verifying the signature', () => {
    const token = makeToken({ exp: NOW_S + 60, level: 0, email: 'admin@example.com' });
    expect(decodeToken(token)).toEqual({ exp: NOW_S + 60, level: 0, email: 'admin@example.com' });
  });

  it('counts an absent or non-numeric level as -1', () => {
    expect(decodeToken(makeToken({ exp: NOW_S }))?.level).toBe(NO_LEVEL);
    expect(decodeToken(makeToken({ exp: NOW_S, level: '0' }))?.level).toBe(NO_LEVEL);
  });

  it('decodes base64url payloads holding UTF-8 text', () => {
    expect(decodeToken(makeToken({ exp: NOW_S, email: 'çağrı@örnek.com' }))?.email).toBe('çağrı@örnek.com');
  });

  it.each([
    ['no dots', 'garbage'],
    ['payload not base64', 'a.!!!.c'],
    ['payload not JSON', `a.${btoa('not json')}.c`],
    ['payload not an object', `a.${btoa('42')}.c`],
    ['no exp', makeToken({ level: 1 })],
    ['exp not a number', makeToken({ exp: 'tomorrow' })],
  ])('returns null for an undecodable token (%s)', (_case, token) => {
    expect(decodeToken(token)).toBeNull();
  });
});

describe('readSession', () => {
  it('is null without a token', () => {
    expect(readSession(NOW_MS)).toBeNull();
  });

  it('returns the session of a valid token; level 0 is the administrator', () => {
    setToken(makeToken({ exp: NOW_S + 60, level: 0, email: 'a@b.co' }));
    expect(readSession(NOW_MS)).toMatchObject({ level: 0, isAdmin: true, email: 'a@b.co' });
    setToken(makeToken({ exp: NOW_S + 60, level: 1 }));
    expect(readSession(NOW_MS)).toMatchObject({ level: 1, isAdmin: false });
    setToken(makeToken({ exp: NOW_S + 60 }));
    expect(readSession(NOW_MS)).toMatchObject({ level: NO_LEVEL, isAdmin: false });
  });

  it('removes an expired token (exp is in seconds, expiry is inclusive)', () => {
    setToken(makeToken({ exp: NOW_S, level: 1 }));
    expect(readSession(NOW_MS)).toBeNull();
    expect(getToken()).toBeNull();
  });

  it('removes an undecodable token', () => {
    setToken('not-a-jwt');
    expect(readSession(NOW_MS)).toBeNull();
    expect(getToken()).toBeNull();
  });

  it('keeps a token that is still valid', () => {
    const token = sessionToken({ level: 1 });
    setToken(token);
    expect(readSession()?.token).toBe(token);
    expect(getToken()).toBe(token);
  });
});
