import type { Queryable } from '../../db';

/** A stored field: its value as JSON, when it was last written. */
export interface StoredSetting {
  key: string;
  value: unknown;
  updatedAt: Date;
}

/** The only SQL of System Setting: the `settings` rows (one a field) and their version (migration 044). */
export class SystemSettingsRepository {
  constructor(private readonly db: Queryable) {}

  /** The largest version: it grows with every write, so an unchanged number is an unchanged set. */
  async version(): Promise<number> {
    const [row] = await this.db.query<{ version: string | null }>(
      'SELECT max(version)::text AS version FROM settings',
    );
    return Number(row?.version ?? 0);
  }

  async all(): Promise<{ version: number; rows: StoredSetting[] }> {
    const rows = await this.db.query<{ key: string; value: unknown; updated_at: Date; version: string }>(
      'SELECT key, value, updated_at, version::text AS version FROM settings',
    );
    return {
      version: Math.max(0, ...rows.map((row) => Number(row.version))),
      rows: rows.map((row) => ({ key: row.key, value: row.value, updatedAt: new Date(row.updated_at) })),
    };
  }

  /** Writes the fields in one statement, each taking a new version. */
  async save(values: Record<string, unknown>): Promise<void> {
    const entries = Object.entries(values);
    if (entries.length === 0) return;
    await this.db.query(
      `INSERT INTO settings (key, value, updated_at)
       SELECT key, value::jsonb, now() FROM unnest($1::text[], $2::text[]) AS given (key, value)
       ON CONFLICT (key) DO UPDATE
         SET value = EXCLUDED.value, updated_at = now(), version = nextval('settings_version_seq')`,
      [entries.map(([key]) => key), entries.map(([, value]) => JSON.stringify(value))],
    );
  }
}
