/** Users whose zones list is kept; each entry is the JSON text (about 150 KB for 1,000 zones). */
const MAX_USERS = 200;

/**
 * The zones list of recent users, as the JSON text sent, with the mirror version it was read at.
 * Reading 1,000 rows costs far more than checking the version, so a list is read again only when its
 * version moved (see ZonesRepository.listVersion).
 */
export class ZoneListCache {
  private readonly entries = new Map<number, { version: string; json: string }>();

  get(userId: number, version: string): string | undefined {
    const entry = this.entries.get(userId);
    return entry?.version === version ? entry.json : undefined;
  }

  set(userId: number, version: string, json: string): void {
    // Re-inserted last, so the first key is always the least recently stored.
    this.entries.delete(userId);
    this.entries.set(userId, { version, json });
    if (this.entries.size > MAX_USERS) this.entries.delete(this.entries.keys().next().value!);
  }
}
