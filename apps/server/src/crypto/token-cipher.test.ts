import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { maskToken, TokenCipher } from './token-cipher';

describe('TokenCipher', () => {
  const cipher = new TokenCipher(randomBytes(32));

  it('round-trips a token and never stores it in clear', () => {
    const stored = cipher.encrypt('cfsandbox-demo-token-1');
    expect(stored).not.toContain('cfsandbox');
    expect(cipher.decrypt(stored)).toBe('cfsandbox-demo-token-1');
  });

  it('uses a fresh IV each time', () => {
    expect(cipher.encrypt('same')).not.toBe(cipher.encrypt('same'));
  });

  it('refuses a tampered value or another key', () => {
    const stored = cipher.encrypt('secret-token');
    const parts = stored.split(':');
    parts[3] = Buffer.from('tampered!').toString('base64');
    expect(() => cipher.decrypt(parts.join(':'))).toThrow();
    expect(() => new TokenCipher(randomBytes(32)).decrypt(stored)).toThrow();
  });

  it('masks to four stars and the last four characters', () => {
    expect(maskToken('abcdefgh1234')).toBe('****1234');
  });
});
