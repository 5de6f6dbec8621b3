import { afterEach, describe, expect, it, vi } from 'vitest';
import { ZONE_LIST_RECHECK_MS, ZoneListCache } from './zone-list-cache';

describe('ZoneListCache', () => {
  afterEach(() => vi.useRealTimers());

  it('serves a list without a version check for a second, then only at the version it was read at', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const cache = new ZoneListCache();
    const json = Buffer.from('[]');
    cache.set(1, 'list', 'v1', json);
    expect(cache.fresh(1, 'list')).toBe(json);
    vi.advanceTimersByTime(ZONE_LIST_RECHECK_MS);
    expect(cache.fresh(1, 'list')).toBeUndefined();
    expect(cache.get(1, 'list', 'v2')).toBeUndefined();
    expect(cache.get(1, 'list', 'v1')).toBe(json);
    // Confirmed again: fresh for another second.
    expect(cache.fresh(1, 'list')).toBe(json);
  });

  it('asks for the version again after a write of this process, for every user', () => {
    const cache = new ZoneListCache();
    cache.set(1, 'list', 'v1', Buffer.from('[1]'));
    cache.set(2, 'list', 'v1', Buffer.from('[2]'));
    cache.changed();
    expect(cache.fresh(1, 'list')).toBeUndefined();
    expect(cache.fresh(2, 'list')).toBeUndefined();
    expect(cache.get(2, 'list', 'v1')?.toString()).toBe('[2]');
  });

  it('answers nothing while the answer caches are off (GUARDIAN_ANSWER_CACHES=off)', () => {
    const caching = { enabled: true };
    const cache = new ZoneListCache(caching);
    const json = Buffer.from('[]');
    cache.set(1, 'list', 'v1', json);
    caching.enabled = false;
    expect(cache.fresh(1, 'list')).toBeUndefined();
    expect(cache.get(1, 'list', 'v1')).toBeUndefined();
    caching.enabled = true;
    expect(cache.get(1, 'list', 'v1')).toBe(json);
  });

  it("keeps each of a user's answers apart: the list and every page asked for", () => {
    const cache = new ZoneListCache();
    cache.set(1, 'list', 'v1', Buffer.from('[]'));
    cache.set(1, 'page {"page":2}', 'v1', Buffer.from('{"zones":[]}'));
    expect(cache.fresh(1, 'list')?.toString()).toBe('[]');
    expect(cache.fresh(1, 'page {"page":2}')?.toString()).toBe('{"zones":[]}');
    expect(cache.fresh(1, 'page {"page":3}')).toBeUndefined();
    expect(cache.fresh(2, 'list')).toBeUndefined();
  });

  it('keeps at most 64 MB of answers, dropping the least recently stored', () => {
    const cache = new ZoneListCache();
    const big = () => Buffer.allocUnsafe(33 * 1024 * 1024);
    cache.set(1, 'list', 'v', big());
    cache.set(2, 'list', 'v', big());
    expect(cache.get(1, 'list', 'v')).toBeUndefined();
    expect(cache.get(2, 'list', 'v')).toBeDefined();
  });
});
