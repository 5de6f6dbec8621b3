import { LRUCache } from 'lru-cache';
import type { AnswerCaches } from '../../deps';

/** Users whose zones list is kept, and their lists' bytes at most (about 150 KB for 1,000 zones; a larger list is not kept). */
const MAX_USERS = 200;
const MAX_BYTES = 64 * 1024 * 1024;
/** How long a kept list is served without asking the database for its version: another server process's changes show within this. */
export const ZONE_LIST_RECHECK_MS = 1_000;

interface Entry {
  version: string;
  /** UTF-8 bytes, encoded once rather than for every answer. */
  json: Buffer;
  /** When the version was last confirmed (performance.now()). */
  checkedAt: number;
}

/**
 * The zones list of recent users, as the JSON sent, with the mirror version it was read at. Reading
 * 1,000 rows costs far more than checking the version, so a list is read again only when its version
 * moved (see ZonesRepository.listJsonForUser), and the version is checked at most once a second per user:
 * every write of this process calls `changed()`, so its own changes show at once.
 */
export class ZoneListCache {
  // Read with `peek`: the list dropped first is the least recently stored, not the least recently read.
  private readonly entries = new LRUCache<number, Entry>({
    max: MAX_USERS,
    maxSize: MAX_BYTES,
    sizeCalculation: (entry) => entry.json.length,
  });
  private changedAt = -Infinity;

  constructor(private readonly caching: AnswerCaches = { enabled: true }) {}

  /** The list, when its version was confirmed less than ZONE_LIST_RECHECK_MS ago and nothing changed since. */
  fresh(userId: number): Buffer | undefined {
    if (!this.caching.enabled) return undefined;
    const entry = this.entries.peek(userId);
    if (!entry || entry.checkedAt < this.changedAt) return undefined;
    return performance.now() - entry.checkedAt < ZONE_LIST_RECHECK_MS ? entry.json : undefined;
  }

  /** The version of the list kept for the user, if any: the database answers the list only when it moved. */
  keptVersion(userId: number): string | undefined {
    if (!this.caching.enabled) return undefined;
    return this.entries.peek(userId)?.version;
  }

  /** The list when it was stored at `version`, which the database has just confirmed. */
  get(userId: number, version: string): Buffer | undefined {
    if (!this.caching.enabled) return undefined;
    const entry = this.entries.peek(userId);
    if (entry?.version !== version) return undefined;
    entry.checkedAt = performance.now();
    return entry.json;
  }

  set(userId: number, version: string, json: Buffer): void {
    this.entries.set(userId, { version, json, checkedAt: performance.now() });
  }

  /** A zone was written (for anyone: a removal reaches every user of the account): check versions again. */
  changed(): void {
    this.changedAt = performance.now();
  }
}
