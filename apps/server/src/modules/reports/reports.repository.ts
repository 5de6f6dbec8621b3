import type { ActivityKind } from '@guardian/contract';
import type { Queryable } from '../../db';

/** Changes by outcome. */
export interface OutcomeCounts {
  success: number;
  refused: number;
  failed: number;
}

/** What the Activity report reads of the trail: its range, whose changes, which account. */
export interface ActivityFilter {
  since: Date;
  until: Date;
  bucket: 'hour' | 'day';
  /** An IANA time zone: the buckets start at its hours or midnights. */
  tz: string;
  /** Only this person's changes (the person's own report); absent: everyone's. */
  userId?: number;
  /** Cloudflare's account id. */
  accountId?: string;
  /** The kinds that are an action's first part; any other action is `other`. */
  kinds: readonly ActivityKind[];
}

export interface JobCounts {
  succeeded: number;
  failed: number;
  cancelled: number;
}

/** One budget of a token as the database counts it now (`cloudflare_budget_take`, migrations 016, 022). */
export interface BudgetUse {
  used: number;
  blockedUntil: Date | null;
}

const OUTCOME_COUNTS = `count(*) FILTER (WHERE outcome = 'success')::int AS success,
       count(*) FILTER (WHERE outcome = 'refused')::int AS refused,
       count(*) FILTER (WHERE outcome = 'failed')::int AS failed`;

const JOB_COUNTS = `count(*) FILTER (WHERE state = 'succeeded')::int AS succeeded,
       count(*) FILTER (WHERE state = 'failed')::int AS failed,
       count(*) FILTER (WHERE state = 'cancelled')::int AS cancelled`;

/** The trail's WHERE of a filter: the time range (the `at` index), the person's or the account's. */
function activityWhere(filter: ActivityFilter, params: unknown[]): string {
  const add = (value: unknown) => `$${params.push(value)}`;
  const conditions = [`at >= ${add(filter.since)}`, `at < ${add(filter.until)}`];
  if (filter.userId !== undefined) conditions.push(`user_id = ${add(filter.userId)}`);
  if (filter.accountId !== undefined) conditions.push(`account_id = ${add(filter.accountId)}`);
  return conditions.join(' AND ');
}

/**
 * The reports' own SQL: what Guardian knows of itself (its trail, its jobs, its tokens' budgets).
 * Each read is one grouped statement over an index: (user_id, at), (account_id, at) or (at) of the
 * trail, (user_id, created_at) of the jobs, the budget's primary key.
 */
export class ReportsRepository {
  constructor(private readonly db: Queryable) {}

  /** The person's jobs that ended since `since`, by outcome. */
  async jobOutcomes(userId: number, since: Date): Promise<{ succeeded: number; failed: number }> {
    const [row] = await this.db.query<{ succeeded: number | string; failed: number | string }>(
      `SELECT count(*) FILTER (WHERE state = 'succeeded') AS succeeded,
              count(*) FILTER (WHERE state = 'failed') AS failed
         FROM jobs WHERE user_id = $1 AND finished_at >= $2`,
      [userId, since],
    );
    return { succeeded: Number(row?.succeeded ?? 0), failed: Number(row?.failed ?? 0) };
  }

  /**
   * Changes per bucket (the start of the hour or day in the time zone) and kind, by outcome: at most
   * (buckets in the range) x (kinds) rows, whatever the trail holds.
   */
  async activitySeries(
    filter: ActivityFilter,
  ): Promise<({ time: Date; kind: ActivityKind } & OutcomeCounts)[]> {
    const params: unknown[] = [filter.bucket, filter.tz, filter.kinds];
    const where = activityWhere(filter, params);
    return this.db.query(
      `SELECT date_trunc($1, at, $2) AS time,
              CASE WHEN split_part(action, '.', 1) = ANY($3::text[]) THEN split_part(action, '.', 1)
                   ELSE 'other' END AS kind,
              ${OUTCOME_COUNTS}
         FROM audit_events WHERE ${where}
        GROUP BY 1, 2`,
      params,
    );
  }

  /**
   * Changes by person, the most first, at most `limit` people, each with their e-mail now (`null`
   * for sign-ins tried with e-mails nobody has), and how many people changed anything.
   */
  async activityByPerson(
    filter: ActivityFilter,
    limit: number,
  ): Promise<{ people: ({ userId: number | null; email: string | null } & OutcomeCounts)[]; total: number }> {
    const params: unknown[] = [];
    const where = activityWhere(filter, params);
    const rows = await this.db.query<
      { user_id: number | string | null; email: string | null; people: number } & OutcomeCounts
    >(
      `SELECT e.user_id, u.email, ${OUTCOME_COUNTS}, count(*) OVER ()::int AS people
         FROM (SELECT user_id, outcome FROM audit_events WHERE ${where}) e
         LEFT JOIN users u ON u.id = e.user_id
        GROUP BY e.user_id, u.email
        ORDER BY count(*) DESC, e.user_id NULLS LAST
        LIMIT $${params.push(limit)}`,
      params,
    );
    return {
      people: rows.map((row) => ({
        userId: row.user_id === null ? null : Number(row.user_id),
        email: row.email,
        success: row.success,
        refused: row.refused,
        failed: row.failed,
      })),
      total: rows[0]?.people ?? 0,
    };
  }

  /** Whether Guardian has a Cloudflare account of this id (anyone's): an administrator's filter. */
  async accountExists(accountId: string): Promise<boolean> {
    const rows = await this.db.query('SELECT 1 FROM cloudflare_accounts WHERE account_id = $1 LIMIT 1', [
      accountId,
    ]);
    return rows.length > 0;
  }

  /**
   * The person's jobs that ended in the range, per bucket (UTC) and kind, by how they ended: at most
   * (buckets) x (job kinds) rows. `accountRef`: only the jobs on this account (Guardian's id).
   */
  async jobSeries(
    userId: number,
    range: { since: Date; until: Date; bucket: 'hour' | 'day' },
    accountRef?: number,
  ): Promise<({ time: Date; kind: string } & JobCounts)[]> {
    const params: unknown[] = [range.bucket, userId, range.since, range.until];
    const account = accountRef === undefined ? '' : `AND account_id = $${params.push(accountRef)}`;
    return this.db.query(
      `SELECT date_trunc($1, finished_at, 'UTC') AS time, kind, ${JOB_COUNTS}
         FROM jobs
        WHERE user_id = $2 AND finished_at >= $3 AND finished_at < $4
          AND state IN ('succeeded', 'failed', 'cancelled') ${account}
        GROUP BY 1, 2`,
      params,
    );
  }

  /**
   * Each budget key's requests counted in its window now (as `cloudflare_budget_take` counts them:
   * the seconds after now minus the window), and until when Cloudflare told Guardian to hold it.
   */
  async budgetUse(budgets: readonly { key: string; windowMs: number }[]): Promise<Map<string, BudgetUse>> {
    if (budgets.length === 0) return new Map();
    const rows = await this.db.query<{ key: string; used: number; blocked_until: Date | null }>(
      `SELECT k.key,
              (SELECT coalesce(sum(s.requests), 0)::int FROM cloudflare_budget_seconds s
                WHERE s.token_key = k.key
                  AND s.second > floor(extract(epoch FROM clock_timestamp())) - k.window_seconds) AS used,
              (SELECT CASE WHEN b.blocked_until > clock_timestamp() THEN b.blocked_until END
                 FROM cloudflare_budget b WHERE b.token_key = k.key) AS blocked_until
         FROM unnest($1::text[], $2::int[]) AS k(key, window_seconds)`,
      [budgets.map((budget) => budget.key), budgets.map((budget) => Math.ceil(budget.windowMs / 1000))],
    );
    return new Map(
      rows.map((row) => [
        row.key,
        { used: row.used, blockedUntil: row.blocked_until === null ? null : new Date(row.blocked_until) },
      ]),
    );
  }
}
