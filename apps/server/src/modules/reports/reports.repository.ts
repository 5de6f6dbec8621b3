import type { Queryable } from '../../db';

/** The reports' own SQL: what Guardian's checks read of its jobs. */
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
}
