import { Activity, Server, ShieldAlert, ShieldBan, type LucideIcon } from 'lucide-react';
import type { OverviewReport, OverviewTile } from '@guardian/contract';
import { PlanUse } from '../../components/plan-use';
import { ErrorMessage } from '../../components/ui/error-message';
import { PageHeader } from '../../components/ui/page-header';
import { useOverviewQuery } from '../../api/reports/overview-query';
import { errorMessage } from '../../lib/api';
import { StatTile } from './components/stat-tile';

/** Spec section 2's four tiles, in its order and words, each read live from its source. */
const TILES = [
  { key: 'active_servers', label: 'Active Servers', icon: Server, accent: 'bg-brand-soft text-brand' },
  {
    key: 'security_alerts',
    label: 'Security Alerts',
    icon: ShieldAlert,
    accent: 'bg-warning-soft text-warning',
  },
  { key: 'blocked_threats', label: 'Blocked Threats', icon: ShieldBan, accent: 'bg-danger-soft text-danger' },
  { key: 'system_health', label: 'System Health', icon: Activity, accent: 'bg-success-soft text-success' },
] satisfies {
  key: Exclude<keyof OverviewReport, 'read_at'>;
  label: string;
  icon: LucideIcon;
  accent: string;
}[];

/** A tile's figure as the console writes numbers: "1,287", "99.8%". */
function valueText(tile: OverviewTile & { value: number }): string {
  return tile.unit === 'percent'
    ? `${tile.value.toLocaleString('en-US', { maximumFractionDigits: 1 })}%`
    : tile.value.toLocaleString('en-US');
}

/** The user dashboard, at /dashboard and /dashboard/overview: live tiles from /api/reports/overview. */
export default function OverviewScreen() {
  const overview = useOverviewQuery();
  return (
    <>
      <PageHeader title="Genel Durum" />
      {overview.isError && (
        <ErrorMessage className="mb-4" onRetry={() => void overview.refetch()}>
          {errorMessage(overview.error, 'Failed to load the overview.')}
        </ErrorMessage>
      )}
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-busy={overview.isPending || undefined}>
        {TILES.map(({ key, ...tile }) => {
          const data = overview.data?.[key];
          return (
            <StatTile
              key={key}
              {...tile}
              loading={overview.isPending}
              value={data && data.value !== null ? valueText({ ...data, value: data.value }) : null}
              detail={
                data
                  ? data.value === null
                    ? data.unavailable
                    : data.detail
                  : overview.isError
                    ? 'Not read'
                    : null
              }
            />
          );
        })}
      </div>
      {overview.data && overview.data.system_health.checks.length > 0 && (
        <section aria-labelledby="health-checks" className="mt-6 max-w-2xl">
          <h2 id="health-checks" className="mb-2 text-base font-semibold text-ink">
            System health checks
          </h2>
          <ul className="divide-y divide-line rounded-card border border-line bg-surface shadow-xs">
            {overview.data.system_health.checks.map((check) => (
              <li
                key={check.name}
                className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5 px-4 py-2.5 text-sm"
              >
                <span className={check.passed ? 'font-medium text-success' : 'font-medium text-danger-hover'}>
                  {check.passed ? 'Passing' : 'Failing'}
                </span>
                <span className="font-medium text-ink">{check.name}</span>
                <span className="text-ink-muted">{check.detail}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <PlanUse className="mt-6 max-w-3xl" />
    </>
  );
}
