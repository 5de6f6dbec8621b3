import { useMemo, type ReactNode } from 'react';
import { clsx } from 'clsx';
import { REPORT_RANGES, type ReportQuery, type ReportRange, type ReportScope } from '@guardian/contract';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Field, Select } from '../../../components/ui/input';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { useZonesQuery } from '../../../api/zones/zones-query';
import { errorMessage } from '../../../lib/api';
import { RANGE_LABELS, useReportFilters } from '../lib/filters';
import { ScopeLine } from './scope-line';

/** What a report's query hook gives its page (TanStack Query's result, as far as the page reads it). */
export interface ReportResult<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  isPlaceholderData: boolean;
  refetch: () => unknown;
}

interface ReportPageProps<T extends { scope: ReportScope }> {
  title: string;
  description: string;
  /** The report for the filters: the screen's query hook. */
  useReport: (query: ReportQuery) => ReportResult<T>;
  children: (report: T, query: ReportQuery) => ReactNode;
}

/**
 * A Reports page: its heading, the filters (account, zone, range; in the address), the scope of the
 * answer (range, zones read and left out), and the report itself once read.
 */
export function ReportPage<T extends { scope: ReportScope }>({
  title,
  description,
  useReport,
  children,
}: ReportPageProps<T>) {
  const { query, set } = useReportFilters();
  const report = useReport(query);
  return (
    <ReportFrame
      title={title}
      description={description}
      filters={<ReportFilters query={query} onChange={set} />}
      report={report}
    >
      {(data) => (
        <>
          <ScopeLine scope={data.scope} />
          {children(data, query)}
        </>
      )}
    </ReportFrame>
  );
}

interface ReportFrameProps<T> {
  title: string;
  description: string;
  filters: ReactNode;
  report: ReportResult<T>;
  children: (report: T) => ReactNode;
}

/**
 * The frame of every report page (the Reports pages, Activity, Performance): heading, filters, then
 * skeleton cards while the first answer is read, the server's message with Retry on a failure (never a
 * blank chart), and the last answer dimmed while the one for new filters comes.
 */
export function ReportFrame<T>({ title, description, filters, report, children }: ReportFrameProps<T>) {
  const stale = report.isPlaceholderData && report.isFetching;
  return (
    <>
      <PageHeader title={title} description={description} />
      {filters}
      {report.isError ? (
        <ErrorMessage onRetry={() => void report.refetch()}>
          {errorMessage(report.error, `Failed to load the ${title.toLowerCase()} report.`)}
        </ErrorMessage>
      ) : report.isPending || !report.data ? (
        <ReportSkeleton />
      ) : (
        <div
          aria-busy={stale || undefined}
          className={clsx('space-y-4 transition-opacity', stale && 'opacity-60')}
        >
          {stale && <Spinner size="sm" label="Loading the report for these filters" className="text-brand" />}
          {children(report.data)}
        </div>
      )}
    </>
  );
}

interface FiltersProps {
  query: ReportQuery;
  onChange: (next: { account?: string; zone?: string; range?: ReportRange }) => void;
}

/** Account, zone and range: the person's accounts and zones from the zones mirror. */
export function ReportFilters({ query, onChange }: FiltersProps) {
  const zones = useZonesQuery();
  const zoneChoices = useMemo(
    () =>
      (zones.data ?? [])
        .filter((zone) => !query.account_id || zone.account_id === query.account_id)
        .sort((a, b) => a.domain.localeCompare(b.domain)),
    [zones.data, query.account_id],
  );
  return (
    <form
      aria-label="Report filters"
      onSubmit={(event) => event.preventDefault()}
      className="mb-4 grid gap-3 sm:grid-cols-3 lg:max-w-4xl"
    >
      <AccountField
        value={query.account_id}
        loading={zones.isPending}
        onChange={(account) => onChange({ account, zone: '' })}
      />
      <Field label="Zone">
        {(control) => (
          <Select
            {...control}
            value={query.zone_id ?? ''}
            disabled={zones.isPending}
            onChange={(event) => onChange({ zone: event.target.value })}
          >
            <option value="">All zones</option>
            {zoneChoices.map((zone) => (
              <option key={zone.id} value={zone.id}>
                {zone.domain}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <RangeField value={query.range} onChange={(range) => onChange({ range })} />
    </form>
  );
}

/** A report's account filter: all the person's accounts, or one (while the zones load, disabled). */
export function AccountField({
  value,
  loading,
  onChange,
}: {
  value: string | undefined;
  loading: boolean;
  onChange: (account: string) => void;
}) {
  const accounts = useAccountChoices();
  return (
    <Field label="Account">
      {(control) => (
        <Select
          {...control}
          value={value ?? ''}
          disabled={loading}
          onChange={(event) => onChange(event.target.value)}
        >
          <option value="">All accounts</option>
          {accounts.map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}

/** A report's range filter: the ranges a report reads. */
export function RangeField({
  value,
  onChange,
}: {
  value: ReportRange;
  onChange: (range: ReportRange) => void;
}) {
  return (
    <Field label="Range">
      {(control) => (
        <Select {...control} value={value} onChange={(event) => onChange(event.target.value as ReportRange)}>
          {REPORT_RANGES.map((range) => (
            <option key={range} value={range}>
              {RANGE_LABELS[range]}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}

/** The person's accounts (id, name) by name, from the zones mirror: the account filter's choices. */
export function useAccountChoices(): [string, string][] {
  const zones = useZonesQuery();
  return useMemo(() => {
    const byId = new Map<string, string>();
    for (const zone of zones.data ?? []) byId.set(zone.account_id, zone.accountName);
    return [...byId.entries()].sort((a, b) => a[1].localeCompare(b[1]));
  }, [zones.data]);
}

/** Grey cards where the charts will be, while the first answer is read. */
function ReportSkeleton() {
  return (
    <div className="space-y-4">
      <Spinner label="Loading the report" className="text-brand" />
      <div aria-hidden="true" className="grid gap-4 lg:grid-cols-2">
        {[0, 1, 2, 3].map((card) => (
          <div
            key={card}
            className={clsx(
              'h-64 animate-pulse rounded-card border border-line bg-surface',
              card === 0 && 'lg:col-span-2',
            )}
          />
        ))}
      </div>
    </div>
  );
}
