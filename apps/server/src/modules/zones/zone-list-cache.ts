/** Users whose zones list is kept, and their lists' bytes at most (about 150 KB for 1,000 zones). */
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
 * moved (see ZonesRepository.listVersion), and the version is checked at most once a second per user:
 * every write of this process calls `changed()`, so its own changes show at once.
 */
export class ZoneListCache {
  private readonly entries = new Map<number, Entry>();
  private bytes = 0;
  private changedAt = -Infinity;

  /** The list, when its version was confirmed less than ZONE_LIST_RECHECK_MS ago and nothing changed since. */
  fresh(userId: number): Buffer | undefined {
    const entry = this.entries.get(userId);
    if (!entry || entry.checkedAt < this.changedAt) return undefined;
    return performance.now() - entry.checkedAt < ZONE_LIST_RECHECK_MS ? entry.json : undefined;
  }

  /** The list when it was stored at `version`, which the database has just confirmed. */
  get(userId: number, version: string): Buffer | undefined {
    const entry = this.entries.get(userId);
    if (entry?.version !== version) return undefined;
    entry.checkedAt = performance.now();
    return entry.json;
  }

  set(userId: number, version: string, json: Buffer): void {
    this.forget(userId);
    // Inserted last, so the first key is always the least recently stored.
    this.entries.set(userId, { version, json, checkedAt: performance.now() });
    this.bytes += json.length;
    while (this.entries.size > MAX_USERS || (this.bytes > MAX_BYTES && this.entries.size > 1)) {
      this.forget(this.entries.keys().next().value!);
    }
  }

  private forget(userId: number): void {
    const entry = this.entries.get(userId);
    if (!entry) return;
    this.bytes -= entry.json.length;
    this.entries.delete(userId);
  }

  /** A zone was written (for anyone: a removal reaches every user of the account): check versions again. */
  changed(): void {
    this.changedAt = performance.now();
  }
}
