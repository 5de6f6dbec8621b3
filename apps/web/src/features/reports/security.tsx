import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Ban } from 'lucide-react';
import type { ReportQuery, SecurityReport } from '@guardian/contract';
import { BarTable } from '../../components/charts/bar-table';
import { formatCount } from '../../components/charts/format';
import { TimeSeriesChart } from '../../components/charts/time-series-chart';
import { ActionProgress } from '../../components/ban-everywhere/action-progress';
import { BanEverywhereDialog, type BanTarget } from '../../components/ban-everywhere/ban-everywhere-dialog';
import { useActionRun } from '../../components/ban-everywhere/use-action-run';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { DataTable, TableCell, TableRow } from '../../components/ui/table';
import { useReportQuery } from '../../api/reports/report-query';
import { useZonesQuery } from '../../api/zones/zones-query';
import { ReportPage } from './components/report-page';
import { TopHostsAndPaths, TopValues } from './components/top-values';
import { RANGE_LABELS } from './lib/filters';
import { bucketTimes, seriesByKind } from './lib/series';
import { actionWords, sourceWords } from './lib/words';

const EMPTY = 'No events in this range';
/** What every bar table of the report shares: its count's header and the words of an empty one. */
const BAR_TABLES = { countLabel: 'Events', empty: EMPTY };
const useSecurityReport = (query: ReportQuery) => useReportQuery('security', query);

/** Reports > Security (/reports/security): what Cloudflare stopped on the person's zones, and who. */
export default function SecurityReportScreen() {
  return (
    <ReportPage
      title="Security"
      description="Security events of your zones from Cloudflare's analytics: what acted, on whom, and where."
      useReport={useSecurityReport}
    >
      {(report, query) => <SecurityView report={report} query={query} />}
    </ReportPage>
  );
}

type SourceIp = SecurityReport['top_source_ips'][number];

function SecurityView({ report, query }: { report: SecurityReport; query: ReportQuery }) {
  const zones = useZonesQuery();
  const domainOf = useMemo(() => {
    const byId = new Map((zones.data ?? []).map((zone) => [zone.id, zone.domain]));
    return (zoneId: string) => byId.get(zoneId) ?? zoneId;
  }, [zones.data]);
  const times = useMemo(() => bucketTimes(report.scope), [report.scope]);
  const overTime = useMemo(
    () => seriesByKind(report.over_time, (row) => row.action, times, actionWords),
    [report.over_time, times],
  );
  const [banning, setBanning] = useState<{ target: BanTarget; comment: string } | null>(null);
  const { run, follow, dismiss } = useActionRun();

  const where = query.zone_id
    ? domainOf(query.zone_id)
    : query.account_id
      ? (zones.data?.find((zone) => zone.account_id === query.account_id)?.accountName ?? 'one account')
      : 'all zones';
  const banCommentOf = (row: SourceIp) =>
    `Security report, ${RANGE_LABELS[report.scope.range].toLowerCase()} (${where}): ${formatCount(row.count)} events from ${row.ip}${row.country ? ` (${row.country}${row.asn ? `, AS${row.asn}` : ''})` : ''}`.slice(
      0,
      500,
    );

  return (
    <>
      <p className="text-sm text-ink">
        <span className="text-2xl font-semibold tracking-tight">{formatCount(report.total)}</span> security
        events
      </p>
      {run && <ActionProgress run={run} onDismiss={dismiss} />}
      <TimeSeriesChart
        title="Events over time by action"
        times={times}
        series={overTime}
        bucket={report.scope.bucket}
        empty={EMPTY}
        stacked
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <BarTable
          title="By action"
          rows={report.by_action}
          rowKey={(row) => row.action}
          columns={[{ header: 'Action', cell: (row) => actionWords(row.action) }]}
          count={(row) => row.count}
          {...BAR_TABLES}
        />
        <BarTable
          title="By source"
          description="What acted: custom rules, managed rules, rate limiting, IP lists..."
          rows={report.by_source}
          rowKey={(row) => row.source}
          columns={[{ header: 'Source', cell: (row) => sourceWords(row.source) }]}
          count={(row) => row.count}
          {...BAR_TABLES}
        />
      </div>
      <BarTable
        title="Top source IPs"
        description="Each address with the lists of yours already holding it; Ban everywhere adds it to your blocklists."
        rows={report.top_source_ips}
        rowKey={(row) => row.ip}
        columns={[
          {
            header: 'IP address',
            cell: (row) => <span className="font-mono whitespace-nowrap">{row.ip}</span>,
          },
          { header: 'Country', cell: (row) => row.country || '—' },
          { header: 'ASN', cell: (row) => (row.asn ? `AS${row.asn}` : '—') },
          {
            header: 'Your lists',
            cell: (row) =>
              row.listed_in.length === 0 ? (
                <Badge tone="yellow">In none of your lists</Badge>
              ) : (
                <span className="flex flex-wrap gap-1">
                  {row.listed_in.map((list) => (
                    <Badge key={list.list_id} tone="green">
                      In {list.list_name}
                    </Badge>
                  ))}
                </span>
              ),
          },
          {
            header: 'Action',
            cell: (row) => (
              <Button
                size="sm"
                variant={row.listed_in.length === 0 ? 'danger' : 'secondary'}
                icon={<Ban aria-hidden="true" className="size-4" />}
                aria-label={`Ban ${row.ip} everywhere`}
                onClick={() =>
                  setBanning({
                    target: {
                      value: row.ip,
                      kind: 'ip',
                      holding: new Set(row.listed_in.map((list) => list.list_id)),
                    },
                    comment: banCommentOf(row),
                  })
                }
              >
                Ban everywhere
              </Button>
            ),
          },
        ]}
        count={(row) => row.count}
        {...BAR_TABLES}
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <BarTable
          title="Top ASNs"
          rows={report.top_asns}
          rowKey={(row) => row.asn}
          columns={[
            {
              header: 'ASN',
              cell: (row) => (
                <>
                  AS{row.asn}
                  {row.description && <span className="block text-xs text-ink-muted">{row.description}</span>}
                </>
              ),
            },
          ]}
          count={(row) => row.count}
          {...BAR_TABLES}
        />
        <TopValues title="Top countries" header="Country" rows={report.top_countries} {...BAR_TABLES} />
        <TopHostsAndPaths report={report} {...BAR_TABLES} />
      </div>
      <BarTable
        title="Top rules"
        description="Each rule by its description, linking to its zone's rules."
        rows={report.top_rules}
        rowKey={(row) => `${row.zone_id}/${row.rule_id}`}
        columns={[
          {
            header: 'Rule',
            cell: (row) => (
              <Link
                to={`/cloudflare/zones/${row.zone_id}/rules`}
                className="font-medium text-brand hover:underline"
              >
                {row.description || row.rule_id || sourceWords(row.source)}
              </Link>
            ),
          },
          { header: 'Source', cell: (row) => sourceWords(row.source) },
          { header: 'Zone', cell: (row) => <span className="break-all">{domainOf(row.zone_id)}</span> },
        ]}
        count={(row) => row.count}
        {...BAR_TABLES}
      />
      <RecentEvents report={report} domainOf={domainOf} />
      {banning && (
        <BanEverywhereDialog
          target={banning.target}
          comment={banning.comment}
          onClose={() => setBanning(null)}
          onStarted={(started, value) => {
            setBanning(null);
            void follow(`Ban ${value} everywhere`, started);
          }}
        />
      )}
    </>
  );
}

const eventTime = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** The newest events, one row each, labelled as Cloudflare's sample where it sampled. */
function RecentEvents({
  report,
  domainOf,
}: {
  report: SecurityReport;
  domainOf: (zoneId: string) => string;
}) {
  const sampled = report.recent_events.some((event) => event.sampled);
  return (
    <section aria-labelledby="recent-events" className="space-y-2">
      <div>
        <h2 id="recent-events" className="text-base font-semibold text-ink">
          Recent events{sampled ? ' (sampled)' : ''}
        </h2>
        <p className="text-xs text-ink-muted">
          {sampled
            ? 'Cloudflare samples these events: each row stands for the number of alike events it shows.'
            : 'The newest events as Cloudflare logged them.'}{' '}
          Since{' '}
          <time dateTime={report.recent_events_since}>
            {eventTime.format(new Date(report.recent_events_since))}
          </time>
          .
        </p>
      </div>
      <DataTable
        caption={sampled ? 'Recent events, sampled by Cloudflare' : 'Recent events'}
        columns={['Time', 'Action', 'Source', 'IP address', 'Zone', 'Request', 'Rule', 'Stands for']}
        rows={report.recent_events}
        loadingText="Loading events..."
        empty={EMPTY}
      >
        {(event) => (
          <TableRow key={`${event.ray_id}-${event.time}`}>
            <TableCell label="Time" className="whitespace-nowrap">
              <time dateTime={event.time}>{eventTime.format(new Date(event.time))}</time>
            </TableCell>
            <TableCell label="Action">{actionWords(event.action)}</TableCell>
            <TableCell label="Source">{sourceWords(event.source)}</TableCell>
            <TableCell label="IP address">
              <span className="font-mono whitespace-nowrap">{event.ip}</span>
              {event.country && <span className="block text-xs text-ink-muted">{event.country}</span>}
            </TableCell>
            <TableCell label="Zone" className="wrap-anywhere">
              {event.host || domainOf(event.zone_id)}
            </TableCell>
            <TableCell label="Request" className="font-mono text-xs wrap-anywhere">
              {event.method} {event.path}
            </TableCell>
            <TableCell label="Rule" className="wrap-anywhere">
              {event.description || event.rule_id || '—'}
            </TableCell>
            <TableCell label="Stands for" className="text-right tabular-nums">
              {event.sampled ? `${formatCount(event.sample_interval)} events` : '1 event'}
            </TableCell>
          </TableRow>
        )}
      </DataTable>
    </section>
  );
}
