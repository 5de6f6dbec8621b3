import {
  ALERT_TITLE_MAX,
  ALERTS_OPEN_COUNT_MAX,
  type Alert,
  type AlertKind,
  type AlertSeverity,
  type AlertState,
  type AlertSubject,
} from '@guardian/contract';
import { PLANNED_ONCE, type Queryable } from '../../db';

/** One cause of an alert, as the code where it happens tells it. */
export interface AlertCause {
  userId: number;
  kind: AlertKind;
  severity: AlertSeverity;
  /** Names the cause: the same key raises the same alert while it is open or acknowledged. */
  key: string;
  title: string;
  subject?: AlertSubject | null;
}

/** A raise as it went: `created` when it made a new alert, not counted on a live one (`xmax = 0`). */
export interface RaisedRow {
  id: number;
  created: boolean;
  count: number;
  firstSeen: Date;
  lastSeen: Date;
}

export interface AlertFilter {
  state?: AlertState | 'active';
  kind?: AlertKind;
  severity?: AlertSeverity;
  before?: number;
  limit: number;
}

/**
 * An alert's row as a statement answers it. Dates are Dates from a row's columns, or milliseconds
 * since the epoch from the JSON the page's statement writes (see `page`).
 */
export interface AlertRow {
  id: number;
  kind: AlertKind;
  severity: AlertSeverity;
  state: AlertState;
  title: string;
  subject_type: AlertSubject['type'] | null;
  subject_id: string | null;
  subject_name: string | null;
  count: number;
  first_seen_at: Date | number;
  last_seen_at: Date | number;
  acknowledged_at: Date | number | null;
  resolved_at: Date | number | null;
}

const COLUMNS = `id, kind, severity, state, title, subject_type, subject_id, subject_name, count,
  first_seen_at, last_seen_at, acknowledged_at, resolved_at`;

/**
 * A date column as whole milliseconds since the epoch, as a JavaScript Date keeps it (microseconds
 * dropped, toward the past): formatting 100 dates with to_char costs PGlite more than the rest of a
 * page, the server's toISOString next to nothing.
 */
const epochMs = (column: string) => `floor(extract(epoch FROM ${column}) * 1000)::bigint AS ${column}`;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const isoDate = (date: Date | number) => new Date(date).toISOString();

export function toAlert(row: AlertRow): Alert {
  return {
    id: Number(row.id),
    kind: row.kind,
    severity: row.severity,
    state: row.state,
    title: row.title,
    subject:
      row.subject_type && row.subject_id !== null
        ? { type: row.subject_type, id: row.subject_id, name: row.subject_name ?? '' }
        : null,
    count: row.count,
    first_seen_at: isoDate(row.first_seen_at),
    last_seen_at: isoDate(row.last_seen_at),
    acknowledged_at: row.acknowledged_at === null ? null : isoDate(row.acknowledged_at),
    resolved_at: row.resolved_at === null ? null : isoDate(row.resolved_at),
  };
}

/** Where a person's sign-in addresses stop being remembered (the least recently used goes). */
export const SIGN_IN_ADDRESSES_KEPT = 50;

/** The only SQL of alerts (migration 041). */
export class AlertsRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Raises the cause's alert: a new one, or the live one of its key counted once more (last seen now,
   * its title and severity as this cause says). Answers whether it was new.
   */
  async raise(cause: AlertCause): Promise<RaisedRow> {
    const subject = cause.subject ?? null;
    const [row] = await this.db.query<{
      id: number;
      created: boolean;
      count: number;
      first_seen_at: Date;
      last_seen_at: Date;
    }>(
      `INSERT INTO alerts (user_id, kind, severity, dedupe_key, title, subject_type, subject_id, subject_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (user_id, dedupe_key) WHERE state IN ('open', 'acknowledged')
       DO UPDATE SET count = LEAST(alerts.count, 2147483646) + 1, last_seen_at = now(),
         severity = EXCLUDED.severity, title = EXCLUDED.title, subject_type = EXCLUDED.subject_type,
         subject_id = EXCLUDED.subject_id, subject_name = EXCLUDED.subject_name, seq = nextval('alerts_seq')
       RETURNING id, (xmax = 0) AS created, count, first_seen_at, last_seen_at`,
      [
        cause.userId,
        cause.kind,
        cause.severity,
        cut(cause.key, 400),
        cut(cause.title, ALERT_TITLE_MAX),
        subject?.type ?? null,
        subject ? cut(subject.id, 100) : null,
        subject ? cut(subject.name, 200) : null,
      ],
    );
    return {
      id: Number(row!.id),
      created: row!.created,
      count: row!.count,
      firstSeen: row!.first_seen_at,
      lastSeen: row!.last_seen_at,
    };
  }

  /** The live alerts of these keys resolved by themselves (their cause went away); answers how many. */
  async clear(userId: number, keys: readonly string[]): Promise<number> {
    if (keys.length === 0) return 0;
    const rows = await this.db.query(
      `UPDATE alerts SET state = 'cleared', resolved_at = now()
        WHERE user_id = $1 AND dedupe_key = ANY($2::text[]) AND state IN ('open', 'acknowledged')
        RETURNING id`,
      [userId, keys.map((key) => cut(key, 400))],
    );
    return rows.length;
  }

  /** Deletes up to `limit` alerts resolved (by the person or by themselves) longer than `retentionMs` ago; answers how many. */
  async deleteResolved(retentionMs: number, limit: number): Promise<number> {
    const rows = await this.db.query(
      `DELETE FROM alerts WHERE id IN (
         SELECT id FROM alerts
          WHERE state IN ('resolved', 'cleared') AND resolved_at < now() - $1 * interval '1 millisecond'
          LIMIT $2)
       RETURNING id`,
      [retentionMs, limit],
    );
    return rows.length;
  }

  /** The title of the live alert of a key, if there is one. */
  async liveTitle(userId: number, key: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ title: string }>(
      `SELECT title FROM alerts WHERE user_id = $1 AND dedupe_key = $2 AND state IN ('open', 'acknowledged')`,
      [userId, key],
    );
    return row?.title;
  }

  /**
   * A page of the person's alerts, most recently seen first, read as one row: the page's rows as the
   * text of one JSON array, dates in milliseconds (epochMs). As rows, PGlite decoded each field of each
   * alert in JavaScript (dates parsed from text) and cloned the rows across its process boundary: most
   * of the page's cost, with 50 people asking at once. With one filter at most the statement is
   * planned once (PLANNED_ONCE; planning was a quarter to a third of what remained on PGlite): its best
   * plan is the filter's own index read in `seq` order (migrations 041, 053) whatever the values. Two
   * filters are planned with their values, which tell which index reads fewer rows (`open` is rare, a
   * kind is not).
   */
  async page(userId: number, filter: AlertFilter): Promise<{ alerts: Alert[]; nextCursor: number | null }> {
    const where = ['user_id = $1'];
    const values: unknown[] = [userId];
    const add = (clause: string, value: unknown) => {
      values.push(value);
      where.push(clause.replace('?', `$${values.length}`));
    };
    if (filter.state === 'active') where.push(`state IN ('open', 'acknowledged')`);
    else if (filter.state) add('state = ?', filter.state);
    if (filter.kind) add('kind = ?', filter.kind);
    if (filter.severity) add('severity = ?', filter.severity);
    if (filter.before !== undefined) add('seq < ?', filter.before);
    values.push(filter.limit + 1);
    const filters = [filter.state, filter.kind, filter.severity].filter(Boolean).length;
    const [read] = await this.db.query<{ rows: string | null }>(
      `SELECT json_agg(page ORDER BY seq DESC)::text AS rows
         FROM (SELECT id, kind, severity, state, title, subject_type, subject_id, subject_name, count,
                      ${epochMs('first_seen_at')}, ${epochMs('last_seen_at')},
                      ${epochMs('acknowledged_at')}, ${epochMs('resolved_at')}, seq
                 FROM alerts WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT $${values.length}) page`,
      values,
      filters <= 1 ? PLANNED_ONCE : undefined,
    );
    const rows = read?.rows ? (JSON.parse(read.rows) as (AlertRow & { seq: number })[]) : [];
    const more = rows.length > filter.limit;
    const kept = more ? rows.slice(0, filter.limit) : rows;
    return { alerts: kept.map(toAlert), nextCursor: more ? Number(kept.at(-1)!.seq) : null };
  }

  /** Planned once: the person's open alerts, read from an index whatever the person. */
  async openCount(userId: number): Promise<number> {
    const [row] = await this.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM
        (SELECT 1 FROM alerts WHERE user_id = $1 AND state = 'open' LIMIT ${ALERTS_OPEN_COUNT_MAX}) open`,
      [userId],
      PLANNED_ONCE,
    );
    return row?.count ?? 0;
  }

  /** Moves the person's alert to a state a person sets; undefined when they have no such alert. */
  async setState(
    userId: number,
    id: number,
    state: 'acknowledged' | 'resolved',
  ): Promise<{ alert: Alert; changed: boolean } | undefined> {
    // Acknowledging a resolved alert, or resolving one twice, changes nothing and says so.
    const from = state === 'acknowledged' ? `('open')` : `('open', 'acknowledged')`;
    const [updated] = await this.db.query<AlertRow>(
      `UPDATE alerts SET state = $3,
         acknowledged_at = CASE WHEN $3 = 'acknowledged' THEN now() ELSE acknowledged_at END,
         resolved_at = CASE WHEN $3 = 'resolved' THEN now() ELSE resolved_at END
        WHERE user_id = $1 AND id = $2 AND state IN ${from} RETURNING ${COLUMNS}`,
      [userId, id, state],
    );
    if (updated) return { alert: toAlert(updated), changed: true };
    const [row] = await this.db.query<AlertRow>(
      `SELECT ${COLUMNS} FROM alerts WHERE user_id = $1 AND id = $2`,
      [userId, id],
    );
    return row ? { alert: toAlert(row), changed: false } : undefined;
  }

  /**
   * Records a sign-in's address: answers whether the person had signed in from others but never
   * from this one (their first sign-in is not "new"). Keeps the SIGN_IN_ADDRESSES_KEPT latest.
   */
  async signedInFrom(userId: number, address: string): Promise<boolean> {
    const [known] = await this.db.query<{ known: number; this_one: boolean }>(
      `SELECT count(*)::int AS known, bool_or(address = $2) AS this_one
         FROM alert_sign_in_addresses WHERE user_id = $1`,
      [userId, address],
    );
    await this.db.query(
      `INSERT INTO alert_sign_in_addresses (user_id, address) VALUES ($1, $2)
       ON CONFLICT (user_id, address) DO UPDATE SET last_seen_at = now()`,
      [userId, address],
    );
    if ((known?.known ?? 0) >= SIGN_IN_ADDRESSES_KEPT) {
      await this.db.query(
        `DELETE FROM alert_sign_in_addresses WHERE user_id = $1 AND address NOT IN
           (SELECT address FROM alert_sign_in_addresses WHERE user_id = $1
             ORDER BY last_seen_at DESC LIMIT ${SIGN_IN_ADDRESSES_KEPT})`,
        [userId],
      );
    }
    return (known?.known ?? 0) > 0 && !known?.this_one;
  }
}
