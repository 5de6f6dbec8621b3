import { describe, expect, it } from 'vitest';
import { cutExpression } from './expression-display';

describe('cutExpression', () => {
  it('keeps an expression of up to 70 characters as it is', () => {
    const seventy = 'x'.repeat(70);
    expect(cutExpression(seventy)).toBe(seventy);
    expect(cutExpression('ip.src eq 192.0.2.1')).toBe('ip.src eq 192.0.2.1');
  });

  it('cuts a longer one to 70 characters plus an ellipsis', () => {
    const long = `http.request.uri.path contains "/admin" and not ip.src in {192.0.2.0/24 198.51.100.0/24}`;
    expect(cutExpression(long)).toBe(`${long.slice(0, 70)}...`);
    expect(cutExpression('y'.repeat(71))).toBe(`${'y'.repeat(70)}...`);
  });
});
