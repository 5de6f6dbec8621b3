import { useState, type ChangeEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Download, Search } from 'lucide-react';
import {
  ACTIVITY_KIND_LABELS,
  AUDIT_OUTCOMES,
  AUDIT_SEARCH_MAX,
  type AuditEvent,
  type AuditOutcome,
} from '@guardian/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { LoadMore } from '../../../components/ui/load-more';
import { Input, Select, StackedLabel } from '../../../components/ui/input';
import { PageHeader } from '../../../components/ui/page-header';
import { QueryList } from '../../../components/ui/query-list';
import { useToast } from '../../../components/ui/toast';
import { actionErrorMessage } from '../../../lib/api';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { exportAudit } from '../../../api/audit/audit-export';
import { useAuditQuery } from '../../../api/audit/audit-query';
import { DATE_ONLY, type AuditFilters, type AuditScope } from '../../../api/audit/keys';

const NO_FILTERS: AuditFilters = {
  q: '',
  actor: '',
  account_id: '',
  action: '',
  outcome: '',
  from: '',
  to: '',
};

/**
 * The kinds of change people filter by: the start of the actions the trail records, as the Activity
 * report groups them (`other`, no prefix, is no filter).
 */
const ACTION_KINDS: { label: string; value: string }[] = [
  { label: 'Every kind', value: '' },
  ...Object.entries(ACTIVITY_KIND_LABELS)
    .filter(([kind]) => kind !== 'other')
    .map(([kind, label]) => ({ label, value: `${kind}.` })),
];

const OUTCOMES: Record<AuditOutcome, { label: string; tone: BadgeTone }> = {
  success: { label: 'Done', tone: 'green' },
  refused: { label: 'Refused', tone: 'yellow' },
  failed: { label: 'Failed', tone: 'red' },
};

const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });
const exactly = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** A time of the address: a date input's day, or an exact time (a report's link); anything else is none. */
function timeParam(value: string | null): string {
  if (!value) return '';
  if (DATE_ONLY.test(value)) return value;
  const at = Date.parse(value);
  return Number.isNaN(at) ? '' : new Date(at).toISOString();
}

/** The day a date input shows of a filter's time (an exact time's day in the person's time zone). */
function dateInputValue(value: string): string {
  if (!value || DATE_ONLY.test(value)) return value;
  const at = new Date(value);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/**
 * The filters a link gives in the address (`?action=dnsRecords.&from=…`), as the Activity report's
 * links do: the same parameters as /api/audit. The person filter is the administrators' view's only.
 */
function filtersOfAddress(params: URLSearchParams, everyone: boolean): AuditFilters {
  const outcome = params.get('outcome') ?? '';
  const text = (name: string, max: number) => (params.get(name) ?? '').slice(0, max);
  return {
    q: text('q', AUDIT_SEARCH_MAX),
    actor: everyone ? text('actor', 254) : '',
    account_id: text('account_id', 64),
    action: text('action', 64),
    outcome: (AUDIT_OUTCOMES as readonly string[]).includes(outcome) ? (outcome as AuditOutcome) : '',
    from: timeParam(params.get('from')),
    to: timeParam(params.get('to')),
  };
}

/** The target's fields as one short line: `list_id=…, ip=192.0.2.1`. */
function targetLine(target: AuditEvent['target']): string {
  return Object.entries(target)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

/**
 * The audit trail as a page: filters (first those the address gives), the events newest first with
 * Load more, and a CSV export of what the filters select. `everyone` is the administrators' view, with
 * the person filter and column. A new address (another report link) starts from its filters.
 */
export function ActivityView({ scope }: { scope: AuditScope }) {
  const [params] = useSearchParams();
  return <ActivityTrail key={params.toString()} scope={scope} params={params} />;
}

function ActivityTrail({ scope, params }: { scope: AuditScope; params: URLSearchParams }) {
  const everyone = scope === 'everyone';
  const [filters, setFilters] = useState<AuditFilters>(() => ({
    ...NO_FILTERS,
    ...filtersOfAddress(params, everyone),
  }));
  // Typed filters wait for a pause; the selects and dates apply at once.
  const q = useDebouncedValue(filters.q, 300);
  const actor = useDebouncedValue(filters.actor, 300);
  const accountId = useDebouncedValue(filters.account_id, 300);
  const applied = { ...filters, q, actor, account_id: accountId };
  const trail = useAuditQuery(scope, applied);
  const toast = useToast();
  const [exporting, setExporting] = useState(false);
  /** A filter's control: shows its value, and changes it. */
  const filter = (key: keyof AuditFilters) => ({
    value: filters[key],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
      setFilters((old) => ({ ...old, [key]: event.target.value })),
  });

  const download = async () => {
    setExporting(true);
    try {
      const csv = await exportAudit(scope, applied);
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = 'guardian-activity.csv';
      link.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      toast.error(actionErrorMessage(error, 'Failed to export activity.'));
    } finally {
      setExporting(false);
    }
  };

  const events = trail.data?.pages.flatMap((page) => page.events) ?? [];
  // A report's link gives exact times, which the date inputs show only as days: said in words.
  const exactBounds = (
    [
      ['from', filters.from],
      ['to', filters.to],
    ] as const
  )
    .filter(([, time]) => time && !DATE_ONLY.test(time))
    .map(([word, time]) => `${word} ${exactly.format(new Date(time))}`)
    .join(' ');

  return (
    <>
      <PageHeader
        title={everyone ? 'Activity of everyone' : 'Activity'}
        description={
          everyone
            ? 'Every change made through Guardian by anyone, newest first.'
            : 'Every change you made through Guardian, and every sign-in to your account, newest first.'
        }
        actions={
          <Button
            variant="secondary"
            icon={<Download aria-hidden="true" className="size-4" />}
            loading={exporting}
            onClick={() => void download()}
          >
            {exporting ? 'Exporting...' : 'Export CSV'}
          </Button>
        }
      />

      <form
        aria-label="Filter activity"
        className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-6"
        onSubmit={(event) => event.preventDefault()}
      >
        <StackedLabel text="Search" className="sm:col-span-2 lg:col-span-6">
          <span className="relative">
            <Search
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-ink-muted"
            />
            <Input
              type="search"
              className="pl-9"
              {...filter('q')}
              maxLength={AUDIT_SEARCH_MAX}
              placeholder="An address, a list, a zone, an e-mail..."
            />
          </span>
        </StackedLabel>
        {everyone && (
          <StackedLabel text="Person">
            <Input {...filter('actor')} maxLength={254} placeholder="E-mail contains..." />
          </StackedLabel>
        )}
        <StackedLabel text="Account ID">
          <Input {...filter('account_id')} maxLength={64} placeholder="Cloudflare account id" />
        </StackedLabel>
        <StackedLabel text="Kind">
          <Select {...filter('action')}>
            {ACTION_KINDS.map((kind) => (
              <option key={kind.value} value={kind.value}>
                {kind.label}
              </option>
            ))}
          </Select>
        </StackedLabel>
        <StackedLabel text="Outcome">
          <Select {...filter('outcome')}>
            <option value="">Any outcome</option>
            {Object.entries(OUTCOMES).map(([value, outcome]) => (
              <option key={value} value={value}>
                {outcome.label}
              </option>
            ))}
          </Select>
        </StackedLabel>
        <StackedLabel text="From">
          <Input type="date" {...filter('from')} value={dateInputValue(filters.from)} />
        </StackedLabel>
        <StackedLabel text="To">
          <Input type="date" {...filter('to')} value={dateInputValue(filters.to)} />
        </StackedLabel>
      </form>
      {exactBounds && (
        <p className="-mt-2 mb-4 text-sm text-ink-muted">
          Changes {exactBounds}, as the Activity report counted them. Pick a day to see whole days.
        </p>
      )}

      <QueryList
        query={trail}
        failed="Failed to fetch activity."
        loading="Loading activity..."
        rows={events}
        empty="No activity found."
      >
        <ol
          aria-label="Activity"
          className="divide-y divide-line rounded-card border border-line bg-surface shadow-xs"
        >
          {events.map((event) => (
            <li key={event.id} className="grid gap-1 px-4 py-3 sm:grid-cols-[12rem_1fr_auto] sm:gap-4">
              <time dateTime={event.at} className="text-sm text-ink-muted">
                {when.format(new Date(event.at))}
              </time>
              <div className="min-w-0 text-sm">
                {/* The words name the person; events recorded before they were written show the request. */}
                <p className="font-medium break-words text-ink">
                  {event.summary || (
                    <>
                      {everyone && <span className="text-ink-muted">{event.actor} · </span>}
                      {event.request}
                    </>
                  )}
                </p>
                <p className="text-xs break-words text-ink-muted">
                  {event.address ? `From ${event.address}` : 'By Guardian'}
                </p>
                {event.message && (
                  <p className="mt-1 text-xs break-words text-danger-hover">{event.message}</p>
                )}
                <details className="mt-1 text-xs text-ink-muted">
                  <summary className="w-fit cursor-pointer rounded-control hover:text-ink focus-visible:outline-2 focus-visible:outline-brand">
                    Details
                  </summary>
                  <p className="mt-1 font-mono break-all">{event.request}</p>
                  <p className="font-mono break-all">
                    {targetLine(event.target) || '—'}
                    {event.account_id && ` · account ${event.account_id}`}
                    {event.zone_id && ` · zone ${event.zone_id}`}
                  </p>
                </details>
              </div>
              <div className="sm:text-right">
                <Badge tone={OUTCOMES[event.outcome].tone}>{OUTCOMES[event.outcome].label}</Badge>
              </div>
            </li>
          ))}
        </ol>
      </QueryList>

      <LoadMore query={trail} />
    </>
  );
}
