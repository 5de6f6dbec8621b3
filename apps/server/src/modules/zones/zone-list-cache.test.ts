import { afterEach, describe, expect, it, vi } from 'vitest';
import { ZONE_LIST_RECHECK_MS, ZoneListCache } from './zone-list-cache';

describe('ZoneListCache', () => {
  afterEach(() => vi.useRealTimers());

  it('serves a list without a version check for a second, then only at the version it was read at', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const cache = new ZoneListCache();
    const json = Buffer.from('[]');
    cache.set(1, 'v1', json);
    expect(cache.fresh(1)).toBe(json);
    vi.advanceTimersByTime(ZONE_LIST_RECHECK_MS);
    expect(cache.fresh(1)).toBeUndefined();
    expect(cache.get(1, 'v2')).toBeUndefined();
    expect(cache.get(1, 'v1')).toBe(json);
    // Confirmed again: fresh for another second.
    expect(cache.fresh(1)).toBe(json);
  });

  it('asks for the version again after a write of this process, for every user', () => {
    const cache = new ZoneListCache();
    cache.set(1, 'v1', Buffer.from('[1]'));
    cache.set(2, 'v1', Buffer.from('[2]'));
    cache.changed();
    expect(cache.fresh(1)).toBeUndefined();
    expect(cache.fresh(2)).toBeUndefined();
    expect(cache.get(2, 'v1')?.toString()).toBe('[2]');
  });

  it('answers nothing while the answer caches are off (GUARDIAN_ANSWER_CACHES=off)', () => {
    const caching = { enabled: true };
    const cache = new ZoneListCache(caching);
    const json = Buffer.from('[]');
    cache.set(1, 'v1', json);
    caching.enabled = false;
    expect(cache.fresh(1)).toBeUndefined();
    expect(cache.get(1, 'v1')).toBeUndefined();
    caching.enabled = true;
    expect(cache.get(1, 'v1')).toBe(json);
  });

  it('keeps at most 64 MB of lists, dropping the least recently stored', () => {
    const cache = new ZoneListCache();
    const big = () => Buffer.allocUnsafe(33 * 1024 * 1024);
    cache.set(1, 'v', big());
    cache.set(2, 'v', big());
    expect(cache.get(1, 'v')).toBeUndefined();
    expect(cache.get(2, 'v')).toBeDefined();
  });
});
