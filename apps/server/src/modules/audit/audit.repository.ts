import type { AuditEvent, AuditOutcome } from '@guardian/contract';
import { likeLiteral, type Db, type Queryable } from '../../db';
import { describeEvent } from './audit-words';

export interface NewAuditEvent {
  userId: number | null;
  actor: string;
  address: string;
  action: string;
  request: string;
  accountId: string | null;
  zoneId: string | null;
  target: Record<string, unknown>;
  outcome: AuditOutcome;
  status: number;
  message: string | null;
  /** The event in words; written from the other fields when not given (describeEvent). */
  summary?: string;
}

/** What a trail page or export is filtered by; `userId` limits it to one person's own trail. */
export interface AuditFilter {
  userId?: number;
  actor?: string;
  accountId?: string;
  action?: string;
  outcome?: AuditOutcome;
  from?: string;
  to?: string;
  /** Text the event's words contain, in any case. */
  text?: string;
}

interface AuditRow {
  id: number;
  at: Date;
  user_id: number | null;
  actor: string;
  address: string;
  action: string;
  request: string;
  account_id: string | null;
  zone_id: string | null;
  target: Record<string, unknown>;
  outcome: AuditOutcome;
  status: number;
  message: string | null;
  summary: string;
}

export function toAuditEvent(row: AuditRow): AuditEvent {
  return { ...row, at: row.at.toISOString() };
}

/** The WHERE clause of a filter, with its parameters from `$first` on. */
function whereOf(
  filter: AuditFilter & { before?: number; personId?: number },
  first = 1,
): { clause: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const add = (condition: (placeholder: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(condition(`$${first + params.length - 1}`));
  };
  if (filter.userId !== undefined) add((p) => `user_id = ${p}`, filter.userId);
  if (filter.personId !== undefined) add((p) => `user_id = ${p}`, filter.personId);
  if (filter.actor) add((p) => `actor ILIKE ${p}`, `%${likeLiteral(filter.actor)}%`);
  if (filter.accountId) add((p) => `account_id = ${p}`, filter.accountId);
  if (filter.action) add((p) => `action LIKE ${p}`, `${likeLiteral(filter.action)}%`);
  if (filter.outcome) {
    add((p) => `outcome = ${p}`, filter.outcome);
    // Lets the planner use the partial index of the rare outcomes.
    if (filter.outcome !== 'success') conditions.push(`outcome <> 'success'`);
  }
  // The words' trigram index finds the events holding the text (three characters or more).
  if (filter.text) add((p) => `summary ILIKE ${p}`, `%${likeLiteral(filter.text)}%`);
  if (filter.from) add((p) => `at >= ${p}`, filter.from);
  if (filter.to) add((p) => `at < ${p}`, filter.to);
  // Older than the cursor's event in the trail's order; a cursor whose event is gone ends the trail.
  if (filter.before !== undefined)
    add((p) => `(at, id) < (SELECT at, id FROM audit_events WHERE id = ${p})`, filter.before);
  return { clause: conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '', params };
}

/** The audit trail: appended to on every change, read newest first by time, then id. */
export class AuditRepository {
  constructor(private readonly db: Queryable) {}

  async append(event: NewAuditEvent): Promise<void> {
    await this.db.query(
      `INSERT INTO audit_events
         (user_id, actor, address, action, request, account_id, zone_id, target, outcome, status, message,
          summary)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        event.userId,
        event.actor,
        event.address,
        event.action,
        event.request,
        event.accountId,
        event.zoneId,
        JSON.stringify(event.target),
        event.outcome,
        event.status,
        event.message,
        event.summary ?? describeEvent({ ...event, subject: {} }),
      ],
    );
  }

  /** Up to `limit` events older than the event `before`, newest first (by time, then id). */
  async page(filter: AuditFilter, before: number | undefined, limit: number): Promise<AuditEvent[]> {
    const { clause, params } = whereOf({ ...(await this.byPerson(filter)), before });
    const rows = await this.db.query<AuditRow>(
      `SELECT * FROM audit_events ${clause} ORDER BY at DESC, id DESC LIMIT $${params.length + 1}`,
      [...params, limit],
    );
    return rows.map(toAuditEvent);
  }

  /**
   * A person's whole e-mail reads their events by the person index (those under an earlier e-mail
   * too); part of an e-mail, or one nobody has (a sign-in tried with it), searches every e-mail kept.
   */
  private async byPerson(filter: AuditFilter): Promise<AuditFilter & { personId?: number }> {
    if (!filter.actor) return filter;
    const [person] = await this.db.query<{ id: number }>(
      'SELECT id FROM users WHERE lower(email) = lower($1)',
      [filter.actor],
    );
    return person ? { ...filter, actor: undefined, personId: person.id } : filter;
  }

  /** Deletes the events older than `retentionMs`; answers how many. */
  static async sweep(db: Db, retentionMs: number): Promise<number> {
    return db.transaction(async (tx) => {
      // The append-only trigger lets this transaction, and only it, delete.
      await tx.query(`SELECT set_config('guardian.audit_sweep', 'on', true)`);
      const [row] = await tx.query<{ deleted: number }>(
        `WITH deleted AS (
           DELETE FROM audit_events WHERE at < now() - $1 * interval '1 millisecond' RETURNING 1)
         SELECT count(*)::int AS deleted FROM deleted`,
        [retentionMs],
      );
      return row?.deleted ?? 0;
    });
  }
}
