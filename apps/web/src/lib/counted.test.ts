import { describe, expect, it } from 'vitest';
import { counted } from './counted';

describe('counted', () => {
  it('says one thing in the singular and any other count in the plural, with thousands separated', () => {
    expect(counted(1, 'list')).toBe('1 list');
    expect(counted(0, 'list')).toBe('0 lists');
    expect(counted(10_000, 'item')).toBe('10,000 items');
    expect(counted(2, 'match', 'matches')).toBe('2 matches');
  });
});
