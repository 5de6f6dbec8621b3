import type {
  ActivityQuery,
  ActivityReport,
  OverviewReport,
  PerformanceReport,
  ReportQuery,
} from '@guardian/contract';
import type { AppDeps } from '../../deps';
import type { IpSearchService } from '../ip-search';
import { ActivityReports } from './activity-report';
import { ErrorsFold } from './errors-report';
import { OverviewReports, type OverviewCounts } from './overview-report';
import { PerformanceReports } from './performance-report';
import { ReportReader } from './report-reading';
import { SecurityReports } from './security-report';
import { TrafficFold } from './traffic-report';

export type { OverviewCounts } from './overview-report';

/**
 * The Reports pages, Dashboard > Performance and the overview's tiles, one file per report; those
 * reading Cloudflare's analytics share one ReportReader (the planner, its limits kept an hour, and
 * the answers kept a minute).
 */
export class ReportsService {
  private readonly reader: ReportReader;
  private readonly securityReports: SecurityReports;
  private readonly overviewReports: OverviewReports;
  private readonly activityReports: ActivityReports;
  private readonly performanceReports: PerformanceReports;

  constructor(
    deps: AppDeps,
    ipSearch: IpSearchService,
    counts: OverviewCounts,
    /** How long a report's ask waits for its reading before it answers with what is read so far. */
    firstAnswerMs?: number,
  ) {
    this.reader = new ReportReader(deps, firstAnswerMs);
    this.securityReports = new SecurityReports(this.reader, ipSearch);
    this.overviewReports = new OverviewReports(deps, this.reader, ipSearch, counts);
    this.activityReports = new ActivityReports(deps);
    this.performanceReports = new PerformanceReports(deps, this.reader);
  }

  /** The report as JSON: complete, or what is read so far (`scope.complete`). */
  security(userId: number, query: ReportQuery): Promise<string | Buffer> {
    return this.securityReports.read(userId, query);
  }

  /** The report as JSON: complete, or what is read so far (`scope.complete`). */
  traffic(userId: number, query: ReportQuery): Promise<string | Buffer> {
    return this.reader.progressive('traffic', userId, query, () => new TrafficFold(query));
  }

  /** The report as JSON: complete, or what is read so far (`scope.complete`). */
  errors(userId: number, query: ReportQuery): Promise<string | Buffer> {
    return this.reader.progressive('errors', userId, query, () => new ErrorsFold(query));
  }

  overview(userId: number): Promise<OverviewReport> {
    return this.overviewReports.read(userId);
  }

  activity(user: { id: number; level: number }, query: ActivityQuery): Promise<ActivityReport> {
    return this.activityReports.read(user, query);
  }

  performance(userId: number, query: ReportQuery): Promise<PerformanceReport> {
    return this.performanceReports.read(userId, query);
  }
}
