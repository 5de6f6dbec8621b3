import { LRUCache } from 'lru-cache';
import type { AnswerCaches } from '../../deps';

/** Answers kept (a user's list and the pages they asked for), and their bytes at most (about 150 KB for a list of 1,000 zones, 11 KB a page; a larger answer is not kept). */
const MAX_ANSWERS = 2_000;
const MAX_BYTES = 64 * 1024 * 1024;
/** How long a kept answer is served without asking the database for its version: another server process's changes show within this. */
export const ZONE_LIST_RECHECK_MS = 1_000;

interface Entry {
  version: string;
  /** UTF-8 bytes, encoded once rather than for every answer. */
  json: Buffer;
  /** When the version was last confirmed (performance.now()). */
  checkedAt: number;
}

/**
 * Answers about recent users' zones (the whole list, and pages of the zones screen, each named by
 * `answer`), as the JSON sent, with the mirror version they were read at. Reading the rows costs far
 * more than checking the version, so an answer is read again only when its version moved (see
 * ZonesRepository's `versioned`), and the version is checked at most once a second per answer: every
 * write of this process calls `changed()`, so its own changes show at once.
 */
export class ZoneListCache {
  // Read with `peek`: the answer dropped first is the least recently stored, not the least recently read.
  private readonly entries = new LRUCache<string, Entry>({
    max: MAX_ANSWERS,
    maxSize: MAX_BYTES,
    sizeCalculation: (entry) => entry.json.length,
  });
  private changedAt = -Infinity;

  constructor(private readonly caching: AnswerCaches = { enabled: true }) {}

  /** The answer, when its version was confirmed less than ZONE_LIST_RECHECK_MS ago and nothing changed since. */
  fresh(userId: number, answer: string): Buffer | undefined {
    if (!this.caching.enabled) return undefined;
    const entry = this.entries.peek(keyOf(userId, answer));
    if (!entry || entry.checkedAt < this.changedAt) return undefined;
    return performance.now() - entry.checkedAt < ZONE_LIST_RECHECK_MS ? entry.json : undefined;
  }

  /** The version of the answer kept, if any: the database answers it again only when it moved. */
  keptVersion(userId: number, answer: string): string | undefined {
    if (!this.caching.enabled) return undefined;
    return this.entries.peek(keyOf(userId, answer))?.version;
  }

  /** The answer when it was stored at `version`, which the database has just confirmed. */
  get(userId: number, answer: string, version: string): Buffer | undefined {
    if (!this.caching.enabled) return undefined;
    const entry = this.entries.peek(keyOf(userId, answer));
    if (entry?.version !== version) return undefined;
    entry.checkedAt = performance.now();
    return entry.json;
  }

  set(userId: number, answer: string, version: string, json: Buffer): void {
    this.entries.set(keyOf(userId, answer), { version, json, checkedAt: performance.now() });
  }

  /** A zone was written (for anyone: a removal reaches every user of the account): check versions again. */
  changed(): void {
    this.changedAt = performance.now();
  }
}

const keyOf = (userId: number, answer: string) => `${userId}\u0000${answer}`;
