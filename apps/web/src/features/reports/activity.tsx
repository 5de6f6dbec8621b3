import { useMemo } from 'react';
import { Link } from 'react-router';
import { ACTIVITY_KIND_LABELS, type ActivityReport, type AuditOutcome } from '@guardian/contract';
import { BarTable } from '../../components/charts/bar-table';
import { formatCount } from '../../components/charts/format';
import { TimeSeriesChart } from '../../components/charts/time-series-chart';
import { Field, Select } from '../../components/ui/input';
import { useActivityReportQuery } from '../../api/reports/activity-query';
import { useZonesQuery } from '../../api/zones/zones-query';
import { counted } from '../../lib/counted';
import { useSession } from '../../lib/session';
import { AccountField, RangeField, ReportFrame } from './components/report-page';
import { Totals } from './components/totals';
import { activityHref, useActivityFilters } from './lib/activity-filters';
import { RANGE_LABELS } from './lib/filters';
import { seriesByKind, seriesOfFields } from './lib/series';
import { zonedBucketTimes } from './lib/zoned-buckets';

const EMPTY = 'No changes in this range';
/** What every bar table of the report shares: its count's header and the words of an empty one. */
const BAR_TABLES = { countLabel: 'Changes', empty: EMPTY };

/** How changes ended, in the Activity table's words. */
const OUTCOMES: { outcome: AuditOutcome; label: string }[] = [
  { outcome: 'success', label: 'Done' },
  { outcome: 'refused', label: 'Refused' },
  { outcome: 'failed', label: 'Failed' },
];
const OUTCOME_FIELDS = OUTCOMES.map(({ outcome, label }) => ({ field: outcome, label }));

const ended = (row: { success: number; refused: number; failed: number }) =>
  row.success + row.refused + row.failed;

const readAt = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

/** Reports > Activity (/reports/activity): Guardian's own changes as charts, each one click from the table. */
export default function ActivityReportScreen() {
  const { isAdmin } = useSession();
  const { query, set } = useActivityFilters(isAdmin);
  const report = useActivityReportQuery(query);
  return (
    <ReportFrame
      title="Activity"
      description="Changes made through Guardian, from its own trail: what kind, by whom, and how they ended."
      filters={<ActivityFilters isAdmin={isAdmin} query={query} onChange={set} />}
      report={report}
    >
      {(data) => <ActivityView report={data} />}
    </ReportFrame>
  );
}

interface ActivityFiltersProps {
  isAdmin: boolean;
  query: ReturnType<typeof useActivityFilters>['query'];
  onChange: ReturnType<typeof useActivityFilters>['set'];
}

/** Account, range and, for administrators, whose changes. */
function ActivityFilters({ isAdmin, query, onChange }: ActivityFiltersProps) {
  const zones = useZonesQuery();
  return (
    <form
      aria-label="Report filters"
      onSubmit={(event) => event.preventDefault()}
      className="mb-4 grid gap-3 sm:grid-cols-3 lg:max-w-4xl"
    >
      {isAdmin && (
        <Field label="Whose changes">
          {(control) => (
            <Select
              {...control}
              value={query.scope}
              onChange={(event) => onChange({ scope: event.target.value as 'mine' | 'everyone' })}
            >
              <option value="mine">Mine</option>
              <option value="everyone">Everyone&apos;s</option>
            </Select>
          )}
        </Field>
      )}
      <AccountField
        value={query.account_id}
        loading={zones.isPending}
        onChange={(account) => onChange({ account })}
      />
      <RangeField value={query.range} onChange={(range) => onChange({ range })} />
    </form>
  );
}

function ActivityView({ report }: { report: ActivityReport }) {
  const times = useMemo(
    () =>
      zonedBucketTimes(
        report,
        report.tz,
        report.over_time.map((row) => row.time),
      ),
    [report],
  );
  const byKind = useMemo(
    () =>
      seriesByKind(
        report.over_time.map((row) => ({ ...row, count: ended(row) })),
        (row) => row.kind,
        times,
        (kind) => ACTIVITY_KIND_LABELS[kind as keyof typeof ACTIVITY_KIND_LABELS] ?? kind,
      ),
    [report.over_time, times],
  );
  const byOutcome = useMemo(
    () => seriesOfFields(report.over_time, OUTCOME_FIELDS, times),
    [report.over_time, times],
  );
  // A bucket's changes in the table: from its start to the next one's, within the report's range.
  const bucketHref = (time: string, index: number) =>
    activityHref(report.link, {
      from: Date.parse(time) < Date.parse(report.since) ? report.since : time,
      to: times[index + 1] ?? report.until,
    });
  // Both charts: the changes of each bucket stacked, a bar opening them in the table.
  const overTime = { times, bucket: report.bucket, empty: EMPTY, stacked: true, linkOf: bucketHref };
  const whose = report.scope === 'everyone' ? "everyone's changes" : 'your changes';
  const totals = report.totals;
  return (
    <>
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm text-ink-muted">
        <p>
          {RANGE_LABELS[report.range]} · {whose} · {report.bucket === 'hour' ? 'per hour' : 'per day'} in{' '}
          {report.tz} · read at{' '}
          <time dateTime={report.read_at}>{readAt.format(new Date(report.read_at))}</time>
        </p>
        <Link to={activityHref(report.link)} className="font-medium text-brand hover:underline">
          Open these changes in the Activity table
        </Link>
      </div>
      <Totals
        items={[
          { label: 'Changes', value: formatCount(ended(totals)) },
          ...OUTCOMES.map(({ outcome, label }) => ({ label, value: formatCount(totals[outcome]) })),
        ]}
      />
      <TimeSeriesChart
        {...overTime}
        title="Changes over time by kind"
        description="A bar opens its changes in the Activity table"
        series={byKind}
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <TimeSeriesChart
          {...overTime}
          title="Done, refused and failed over time"
          description="Refused: Guardian or Cloudflare said no (4xx); failed: an error (5xx)"
          series={byOutcome}
        />
        <BarTable
          title="Done or refused"
          rows={ended(totals) === 0 ? [] : OUTCOMES}
          rowKey={(row) => row.outcome}
          columns={[
            {
              header: 'Outcome',
              cell: (row) => (
                <Link
                  to={activityHref(report.link, { outcome: row.outcome })}
                  className="font-medium text-brand hover:underline"
                >
                  {row.label}
                </Link>
              ),
            },
          ]}
          count={(row) => totals[row.outcome]}
          {...BAR_TABLES}
        />
        <BarTable
          title="By kind"
          rows={report.by_kind}
          rowKey={(row) => row.kind}
          columns={[
            {
              header: 'Kind',
              cell: (row) => (
                <Link to={activityHref(row.link)} className="font-medium text-brand hover:underline">
                  {row.label}
                </Link>
              ),
            },
            ...outcomeColumns,
          ]}
          count={ended}
          {...BAR_TABLES}
        />
        <BarTable
          title="By person"
          description={
            report.by_person_more > 0
              ? `The most active; ${counted(report.by_person_more, 'more person', 'more people')} not shown`
              : undefined
          }
          rows={report.by_person}
          rowKey={(row) => String(row.user_id ?? 'unknown')}
          columns={[
            {
              header: 'Person',
              cell: (row) =>
                row.link ? (
                  <Link
                    to={activityHref(row.link)}
                    className="font-medium break-words text-brand hover:underline"
                  >
                    {row.email ?? 'Unknown'}
                  </Link>
                ) : (
                  <span className="break-words">{row.email ?? 'Sign-ins with unknown e-mails'}</span>
                ),
            },
            ...outcomeColumns,
          ]}
          count={ended}
          {...BAR_TABLES}
        />
      </div>
    </>
  );
}

/** A row's changes by how they ended, before its total. */
const outcomeColumns = OUTCOMES.map(({ outcome, label }) => ({
  header: label,
  cell: (row: Record<AuditOutcome, number>) => formatCount(row[outcome]),
  className: 'text-right tabular-nums',
}));
