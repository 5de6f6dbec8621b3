import {
  PLAN_LIMITS,
  type Plan,
  type PlanFields,
  type PlanLimit,
  type PlanUse,
  type ReportRange,
} from '@guardian/contract';
import type { Queryable } from '../../db';

interface PlanRow extends Record<PlanLimit, number> {
  id: number;
  name: string;
  report_range: ReportRange;
  is_default: boolean;
  users: number;
}

const FIELDS = `name, ${PLAN_LIMITS.join(', ')}, report_range`;
const COLUMNS = `p.id, p.${FIELDS.split(', ').join(', p.')}, p.is_default,
  (SELECT count(*)::int FROM users u WHERE u.plan_id = p.id) AS users`;

const toPlan = (row: PlanRow): Plan => ({
  id: row.id,
  name: row.name,
  ...(Object.fromEntries(PLAN_LIMITS.map((limit) => [limit, row[limit]])) as Record<PlanLimit, number>),
  report_range: row.report_range,
  is_default: row.is_default,
  users: row.users,
});

/**
 * What a person uses of each limit, counted from what Guardian holds of them. Zones and lists
 * count through the person's Cloudflare accounts; list items are the lists' kept counts (kept in the
 * same transaction as every item write, so no list is read); keys and servers not revoked. No
 * templates exist yet: none are counted.
 */
const USE_SQL: Record<PlanLimit, string> = {
  accounts: 'SELECT count(*)::int AS used FROM cloudflare_accounts WHERE user_id = $1',
  zones: `SELECT count(*)::int AS used FROM zones z JOIN cloudflare_accounts a ON a.id = z.account_ref
           WHERE a.user_id = $1`,
  lists: `SELECT count(*)::int AS used FROM ban_lists l JOIN cloudflare_accounts a ON a.id = l.account_ref
           WHERE a.user_id = $1`,
  list_items: `SELECT coalesce(sum(l.items_count), 0)::int AS used
                 FROM ban_lists l JOIN cloudflare_accounts a ON a.id = l.account_ref WHERE a.user_id = $1`,
  api_keys: 'SELECT count(*)::int AS used FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL',
  servers: 'SELECT count(*)::int AS used FROM servers WHERE user_id = $1 AND revoked_at IS NULL',
  templates: 'SELECT 0 AS used WHERE $1::bigint IS NOT NULL',
};

/** The only SQL on plans and on people's plans. */
export class PlansRepository {
  constructor(private readonly db: Queryable) {}

  async list(): Promise<Plan[]> {
    const rows = await this.db.query<PlanRow>(`SELECT ${COLUMNS} FROM plans p ORDER BY p.id`);
    return rows.map(toPlan);
  }

  async find(id: number): Promise<Plan | undefined> {
    const [row] = await this.db.query<PlanRow>(`SELECT ${COLUMNS} FROM plans p WHERE p.id = $1`, [id]);
    return row && toPlan(row);
  }

  async count(): Promise<number> {
    const [row] = await this.db.query<{ count: number }>('SELECT count(*)::int AS count FROM plans');
    return row!.count;
  }

  async insert(fields: PlanFields): Promise<Plan> {
    const [row] = await this.db.query<{ id: number }>(
      `INSERT INTO plans (${FIELDS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      valuesOf(fields),
    );
    return (await this.find(row!.id))!;
  }

  async update(id: number, fields: PlanFields): Promise<Plan | undefined> {
    const [row] = await this.db.query<{ id: number }>(
      `UPDATE plans SET (${FIELDS}) = ($2, $3, $4, $5, $6, $7, $8, $9, $10) WHERE id = $1 RETURNING id`,
      [id, ...valuesOf(fields)],
    );
    return row && this.find(row.id);
  }

  /** Makes the plan the default; run in a transaction (two statements, so the one-default index holds). */
  async makeDefault(id: number): Promise<void> {
    await this.db.query('UPDATE plans SET is_default = false WHERE is_default AND id <> $1', [id]);
    await this.db.query('UPDATE plans SET is_default = true WHERE id = $1', [id]);
  }

  /** The plan locked against a change of its people, and the e-mails of up to `shown` of them. */
  async lockWithPeople(id: number, shown: number): Promise<{ plan: Plan; emails: string[] } | undefined> {
    const [row] = await this.db.query<PlanRow>(`SELECT ${COLUMNS} FROM plans p WHERE p.id = $1 FOR UPDATE`, [
      id,
    ]);
    if (!row) return undefined;
    const emails = await this.db.query<{ email: string }>(
      'SELECT email FROM users WHERE plan_id = $1 ORDER BY id LIMIT $2',
      [id, shown],
    );
    return { plan: toPlan(row), emails: emails.map((e) => e.email) };
  }

  async delete(id: number): Promise<void> {
    await this.db.query('DELETE FROM plans WHERE id = $1', [id]);
  }

  async planOf(userId: number): Promise<Plan | undefined> {
    const [row] = await this.db.query<PlanRow>(
      `SELECT ${COLUMNS} FROM users me JOIN plans p ON p.id = me.plan_id WHERE me.id = $1`,
      [userId],
    );
    return row && toPlan(row);
  }

  /**
   * What the person's plan allows of `limit`, their row locked until the transaction ends: a count
   * taken after it (a statement of its own, so it sees what the lock waited for) and an insert before
   * the end cannot interleave with another of the person's adds. Undefined: no such person.
   */
  async lockedAllowance(userId: number, limit: PlanLimit): Promise<number | undefined> {
    const [row] = await this.db.query<{ allowed: number }>(
      `SELECT p.${limit} AS allowed FROM users me JOIN plans p ON p.id = me.plan_id WHERE me.id = $1
       FOR NO KEY UPDATE OF me`,
      [userId],
    );
    return row?.allowed;
  }

  async used(userId: number, limit: PlanLimit): Promise<number> {
    const [row] = await this.db.query<{ used: number }>(USE_SQL[limit], [userId]);
    return row?.used ?? 0;
  }

  async use(userId: number, plan: Plan): Promise<PlanUse[]> {
    const use: PlanUse[] = [];
    for (const limit of PLAN_LIMITS)
      use.push({ limit, allowed: plan[limit], used: await this.used(userId, limit) });
    return use;
  }
}

function valuesOf(fields: PlanFields): unknown[] {
  return [fields.name, ...PLAN_LIMITS.map((limit) => fields[limit]), fields.report_range];
}
