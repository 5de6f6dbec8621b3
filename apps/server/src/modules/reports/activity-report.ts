import {
  ACTIVITY_BUCKETS,
  ACTIVITY_KIND_LABELS,
  ACTIVITY_KINDS,
  ADMIN_LEVEL,
  REPORT_RANGE_SECONDS,
  REPORT_TOP_MAX,
  type ActivityKind,
  type ActivityLink,
  type ActivityQuery,
  type ActivityReport,
} from '@guardian/contract';
import { AppError } from '../../app-error';
import type { AppDeps } from '../../deps';
import { AccountsRepository } from '../accounts';
import { cut, KeptAnswers } from './report-reading';
import { ReportsRepository, type ActivityFilter, type OutcomeCounts } from './reports.repository';

/** How long an Activity report is kept: it reads only the database, and a change just made should show soon. */
const ACTIVITY_KEPT_MS = 10_000;

/** /reports/activity: Guardian's own changes from the audit trail, as charts (no Cloudflare query). */
export class ActivityReports {
  private readonly accounts: AccountsRepository;
  private readonly repository: ReportsRepository;
  private readonly answers: KeptAnswers;

  constructor(deps: AppDeps) {
    this.accounts = new AccountsRepository(deps.db);
    this.repository = new ReportsRepository(deps.db);
    this.answers = new KeptAnswers(deps.answerCaches, ACTIVITY_KEPT_MS);
  }

  /**
   * Guardian's own changes as chart data, from the trail alone: the person's (`mine`), or everyone's
   * for an administrator. Two grouped statements whatever the trail holds; kept 10 seconds.
   */
  async read(user: { id: number; level: number }, query: ActivityQuery): Promise<ActivityReport> {
    const everyone = query.scope === 'everyone';
    if (everyone && user.level !== ADMIN_LEVEL)
      throw new AppError('FORBIDDEN', "Only administrators see everyone's activity.");
    if (query.account_id) {
      const known = everyone
        ? await this.repository.accountExists(query.account_id)
        : await this.accounts.findOwnedByCloudflareId(user.id, query.account_id);
      if (!known) throw new AppError('NOT_FOUND', 'Account not found.');
    }
    return this.answers.kept(['activity', user.id, query], () => this.readNew(user, query));
  }

  private async readNew(user: { id: number }, query: ActivityQuery): Promise<ActivityReport> {
    const everyone = query.scope === 'everyone';
    const until = new Date();
    const since = new Date(until.getTime() - REPORT_RANGE_SECONDS[query.range] * 1000);
    const filter: ActivityFilter = {
      since,
      until,
      bucket: ACTIVITY_BUCKETS[query.range],
      tz: query.tz,
      userId: everyone ? undefined : user.id,
      accountId: query.account_id,
      kinds: ACTIVITY_KINDS.filter((kind) => kind !== 'other'),
    };
    let series: Awaited<ReturnType<ReportsRepository['activitySeries']>>;
    let people: Awaited<ReturnType<ReportsRepository['activityByPerson']>>;
    try {
      series = await this.repository.activitySeries(filter);
      people = await this.repository.activityByPerson(filter, REPORT_TOP_MAX);
    } catch (err) {
      // A name Intl knows and the database's time zone table does not (22023): the person's words.
      if ((err as { code?: unknown }).code === '22023')
        throw new AppError('BAD_REQUEST', `Unknown time zone: ${query.tz}.`);
      throw err;
    }

    const link = (more: Omit<ActivityLink['filters'], 'from' | 'to' | 'account_id'> = {}): ActivityLink => ({
      path: everyone ? '/admin/activity' : '/dashboard/activity',
      filters: {
        from: since.toISOString(),
        to: until.toISOString(),
        ...(query.account_id ? { account_id: query.account_id } : {}),
        ...more,
      },
    });
    const totals: OutcomeCounts = { success: 0, refused: 0, failed: 0 };
    const kinds = new Map<ActivityKind, OutcomeCounts>();
    const addTo = (sum: OutcomeCounts, row: OutcomeCounts) => {
      sum.success += row.success;
      sum.refused += row.refused;
      sum.failed += row.failed;
    };
    for (const row of series) {
      addTo(totals, row);
      let kind = kinds.get(row.kind);
      if (!kind) kinds.set(row.kind, (kind = { success: 0, refused: 0, failed: 0 }));
      addTo(kind, row);
    }
    const all = (counts: OutcomeCounts) => counts.success + counts.refused + counts.failed;
    const answer: ActivityReport = {
      range: query.range,
      scope: query.scope,
      since: since.toISOString(),
      until: until.toISOString(),
      bucket: filter.bucket,
      tz: query.tz,
      totals,
      over_time: series
        .map((row) => ({
          time: new Date(row.time).toISOString(),
          kind: row.kind,
          success: row.success,
          refused: row.refused,
          failed: row.failed,
        }))
        .sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.kind < b.kind ? -1 : 1)),
      by_kind: [...kinds.entries()]
        .sort(([kindA, a], [kindB, b]) => all(b) - all(a) || (kindA < kindB ? -1 : 1))
        .map(([kind, counts]) => ({
          kind,
          label: ACTIVITY_KIND_LABELS[kind],
          ...counts,
          link: link(kind === 'other' ? {} : { action: `${kind}.` }),
        })),
      by_person: people.people.map((person) => ({
        user_id: person.userId,
        email: person.email === null ? null : cut(person.email, 254),
        success: person.success,
        refused: person.refused,
        failed: person.failed,
        // The Activity table selects a person by their whole e-mail; one's own needs no filter.
        link: person.email === null ? null : everyone ? link({ actor: cut(person.email, 254) }) : link(),
      })),
      by_person_more: Math.max(0, people.total - people.people.length),
      link: link(),
      read_at: new Date().toISOString(),
    };
    return answer;
  }
}
