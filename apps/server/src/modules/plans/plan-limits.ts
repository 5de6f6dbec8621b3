import {
  planRangeRefusal,
  planRefusal,
  REPORT_RANGES,
  type PlanLimit,
  type ReportRange,
} from '@guardian/contract';
import { AppError } from '../../app-error';
import type { Db, Queryable } from '../../db';
import type { Leases } from '../../db/leases';
import { PlansRepository } from './plans.repository';

/** How long an add waits for the person's other add (which may be waiting on Cloudflare). */
const PERSON_WAIT_MS = 60_000;

/**
 * Refuses (403, naming the limit) when `adding` more would take the person past their plan's
 * `limit`. In a transaction it locks the person's row first, so two of their adds that each count
 * and insert in one transaction take turns (the database-only adds: API keys, servers, server bans).
 */
export async function refuseBeyondPlan(
  q: Queryable,
  userId: number,
  limit: PlanLimit,
  adding: number,
): Promise<void> {
  const plans = new PlansRepository(q);
  const allowed = await plans.lockedAllowance(userId, limit);
  // A person deleted meanwhile: their add fails on its own (their rows are gone).
  if (allowed === undefined) return;
  if ((await plans.used(userId, limit)) + adding > allowed) {
    throw new AppError('FORBIDDEN', planRefusal(limit, allowed));
  }
}

/**
 * The plans' limits on adds that call Cloudflare (a Cloudflare account, a list, a zone, a list item,
 * an import): no transaction can stay open across Cloudflare's answer (PGlite runs one at a time),
 * so the person's adds take turns on a lease (`plan:<user id>`, in every server process): counted,
 * refused or sent and recorded, one after another. Refused adds send nothing to Cloudflare.
 */
export class PlanLimits {
  constructor(
    private readonly db: Db,
    private readonly leases: Leases,
  ) {}

  /** Runs `add` in the person's turn once `adding` more is within `limit` (`adding` may be found inside: `check`). */
  async within<T>(
    userId: number,
    limit: PlanLimit,
    adding: number,
    add: (check: (more: number) => Promise<void>) => Promise<T>,
  ): Promise<T> {
    return this.leases.run(
      `plan:${userId}`,
      {
        waitMs: PERSON_WAIT_MS,
        busy: () =>
          new AppError(
            'CONFLICT',
            'Another of your additions is still running. Please try again in a moment.',
          ),
      },
      async () => {
        const check = (more: number) => refuseBeyondPlan(this.db, userId, limit, more);
        if (adding > 0) await check(adding);
        return add(check);
      },
    );
  }

  /** Refuses (403) a report range wider than the person's plan allows. */
  async refuseRange(userId: number, range: ReportRange): Promise<void> {
    const plan = await new PlansRepository(this.db).planOf(userId);
    if (plan && REPORT_RANGES.indexOf(range) > REPORT_RANGES.indexOf(plan.report_range)) {
      throw new AppError('FORBIDDEN', planRangeRefusal(plan.report_range));
    }
  }
}
