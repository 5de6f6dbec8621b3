import { LRUCache } from 'lru-cache';
import type { AnswerCaches } from './deps';

/**
 * lru-cache's LRUCache for answers kept in memory (the items routes' pages and search counts, keyed by
 * the list's items version, so a change never needs to find and evict its stale entries: they are
 * simply never asked for again and age out; the lists a read looked up, for a second). While the app's
 * answer caches are off (GUARDIAN_ANSWER_CACHES=off, or the benchmark's switch) it answers nothing, so
 * every read asks the database.
 */
export class AnswerCache<V extends NonNullable<unknown>> extends LRUCache<string, V> {
  constructor(
    private readonly caching: AnswerCaches,
    options: LRUCache.Options<string, V, unknown>,
  ) {
    super(options);
  }

  override get(key: string, options?: LRUCache.GetOptions<string, V, unknown>): V | undefined {
    return this.caching.enabled ? super.get(key, options) : undefined;
  }
}
