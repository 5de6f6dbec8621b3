import { REPORT_TOP_MAX, type OverviewReport, type OverviewTile } from '@guardian/contract';
import { AppError } from '../../app-error';
import type { AppDeps } from '../../deps';
import { AccountsRepository } from '../accounts';
import type { IpSearchService } from '../ip-search';
import { BLOCKING_ACTIONS, OVERVIEW_QUERY, overviewAnswerSchema } from './report-queries';
import { Tally, type ReportReader } from './report-reading';
import { ReportsRepository } from './reports.repository';

/** The overview's part read from Cloudflare's analytics and Guardian's checks, kept a minute. */
interface OverviewAnalytics {
  tiles: Omit<OverviewReport, 'active_servers' | 'security_alerts'>;
  /** Of the top attacking addresses of the last 24 hours, those in none of the person's lists. */
  attackers: { unlisted: number; top: number } | null;
}

/** The overview's counts kept by other modules (servers, alerts), read live on every overview. */
export interface OverviewCounts {
  /** The person's servers heard from in the last 24 hours. */
  activeServers(userId: number): Promise<number>;
  /** The person's open alerts. */
  openAlerts(userId: number): Promise<number>;
}

/** The overview's four tiles ('Genel Durum'), live. */
export class OverviewReports {
  private readonly accounts: AccountsRepository;
  private readonly repository: ReportsRepository;

  constructor(
    deps: AppDeps,
    private readonly reader: ReportReader,
    private readonly ipSearch: IpSearchService,
    private readonly counts: OverviewCounts,
  ) {
    this.accounts = new AccountsRepository(deps.db);
    this.repository = new ReportsRepository(deps.db);
  }

  /**
   * The overview's tiles; a tile whose source fails or does not exist says why instead of a number. The
   * analytics are kept a minute; the servers and alerts counts are read every time (an alert just
   * acknowledged, a server just registered show at once).
   */
  async read(userId: number): Promise<OverviewReport> {
    const [analytics, activeServers, openAlerts] = await Promise.all([
      this.overviewAnalytics(userId),
      this.counts.activeServers(userId),
      this.counts.openAlerts(userId),
    ]);
    const { attackers } = analytics;
    return {
      ...analytics.tiles,
      active_servers: {
        value: activeServers,
        unit: 'count',
        detail: 'Servers that reported in the last 24 hours',
        unavailable: null,
      },
      security_alerts: {
        value: openAlerts,
        unit: 'count',
        detail:
          attackers === null
            ? 'Open alerts'
            : `Open alerts; ${attackers.unlisted} of the ${attackers.top} top attacking addresses of the last 24 hours are in none of your lists`,
        unavailable: null,
      },
    };
  }

  /** The analytics part and Guardian's checks, kept a minute as the reports are. */
  private overviewAnalytics(userId: number): Promise<OverviewAnalytics> {
    return this.reader.answers.kept(['overview', userId], () => this.readAnalytics(userId));
  }

  private async readAnalytics(userId: number): Promise<OverviewAnalytics> {
    const zones = await this.reader.planner.zonesOf(userId, {});
    let blocked: OverviewTile;
    let attackers: OverviewAnalytics['attackers'] = null;
    let reachable: { passed: boolean; detail: string } | undefined;
    if (zones.length === 0) {
      const none = 'No zones yet: add a Cloudflare account with zones to see its security events.';
      blocked = {
        value: null,
        unit: 'count',
        detail: 'Blocked or challenged in the last 24 hours',
        unavailable: none,
      };
    } else {
      try {
        const { blockedCount, unlisted, attackers: top, zoneCount } = await this.readOverview(userId);
        blocked = {
          value: blockedCount,
          unit: 'count',
          detail: `Blocked or challenged in the last 24 hours on ${zoneCount} zone${zoneCount === 1 ? '' : 's'}`,
          unavailable: null,
        };
        attackers = { unlisted, top };
        reachable = { passed: true, detail: "Cloudflare's analytics answered." };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        blocked = {
          value: null,
          unit: 'count',
          detail: 'Blocked or challenged in the last 24 hours',
          unavailable: err.message,
        };
        // A plan without security analytics is no failure of Cloudflare's.
        reachable = err.code === 'BAD_REQUEST' ? undefined : { passed: false, detail: err.message };
      }
    }

    const checks: OverviewReport['system_health']['checks'] = [];
    const accounts = await this.accounts.listForUser(userId);
    if (accounts.length > 0) {
      const valid = accounts.filter(
        (account) => account.tokenStatus === null || account.tokenStatus === 'active',
      );
      checks.push({
        name: 'Account API tokens valid',
        passed: valid.length === accounts.length,
        detail: `${valid.length} of ${accounts.length} account API token${accounts.length === 1 ? '' : 's'} valid`,
      });
    }
    if (reachable) checks.push({ name: 'Cloudflare reachable', ...reachable });
    const jobs = await this.repository.jobOutcomes(userId, new Date(Date.now() - 86_400_000));
    const ended = jobs.succeeded + jobs.failed;
    checks.push({
      name: 'Jobs succeeding',
      passed: jobs.failed === 0,
      detail:
        ended === 0
          ? 'No job ended in the last 24 hours'
          : `${jobs.succeeded} of ${ended} job${ended === 1 ? '' : 's'} of the last 24 hours succeeded`,
    });
    const passed = checks.filter((check) => check.passed).length;
    const answer: OverviewAnalytics = {
      attackers,
      tiles: {
        blocked_threats: blocked,
        system_health: {
          value: Math.round((passed / checks.length) * 1000) / 10,
          unit: 'percent',
          detail: `${passed} of ${checks.length} of Guardian's checks pass`,
          unavailable: null,
          checks,
        },
        read_at: new Date().toISOString(),
      },
    };
    return answer;
  }

  private async readOverview(userId: number) {
    const plan = await this.reader.planner.plan(userId, { range: '24h' }, 'firewallEventsAdaptiveGroups');
    const { answers } = await this.reader.run(
      plan,
      'firewallEventsAdaptiveGroups',
      overviewAnswerSchema,
      () => ({
        query: OVERVIEW_QUERY,
        variables: { blocking: BLOCKING_ACTIONS },
        series: false,
      }),
    );
    let blockedCount = 0;
    const ips = new Tally<string>();
    for (const { data } of answers)
      for (const zone of data.viewer.zones) {
        blockedCount += zone.blocked[0]?.count ?? 0;
        for (const row of zone.topIps) ips.add(row.dimensions.clientIP, row.dimensions.clientIP, row.count);
      }
    const attackers = ips.top(REPORT_TOP_MAX).map(({ value }) => value);
    const listed = await this.ipSearch.listsHolding(userId, attackers, 1);
    const unlisted = attackers.filter((ip) => (listed.get(ip) ?? []).length === 0).length;
    return { blockedCount, unlisted, attackers: attackers.length, zoneCount: plan.scope.zone_count };
  }
}
