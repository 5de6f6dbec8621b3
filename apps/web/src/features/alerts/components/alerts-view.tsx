import { useState, type ChangeEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Check, CheckCheck } from 'lucide-react';
import {
  ALERT_KIND_LABELS,
  ALERT_KINDS,
  ALERT_SEVERITIES,
  ALERT_STATE_LABELS,
  ALERT_STATES,
  type Alert,
  type AlertSeverity,
  type AlertState,
} from '@guardian/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { LoadMore } from '../../../components/ui/load-more';
import { Select, StackedLabel } from '../../../components/ui/input';
import { PageHeader } from '../../../components/ui/page-header';
import { QueryList } from '../../../components/ui/query-list';
import { useToast } from '../../../components/ui/toast';
import { actionErrorMessage } from '../../../lib/api';
import { useAlertsQuery } from '../../../api/alerts/alerts-query';
import { useAlertStateMutation, type AlertAction } from '../../../api/alerts/alert-state-mutation';
import type { AlertFilters } from '../../../api/alerts/keys';

/** The page opens on what still needs the person: open and acknowledged alerts. */
const FIRST_FILTERS: AlertFilters = { state: 'active', kind: '', severity: '' };

const SEVERITIES: Record<AlertSeverity, { label: string; tone: BadgeTone }> = {
  critical: { label: 'Critical', tone: 'red' },
  warning: { label: 'Warning', tone: 'yellow' },
  info: { label: 'Info', tone: 'blue' },
};

const STATE_TONES: Record<AlertState, BadgeTone> = {
  open: 'red',
  acknowledged: 'yellow',
  resolved: 'grey',
  cleared: 'green',
};

const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** Where an alert's subject is seen and acted on, and what the link says. */
function subjectLink(alert: Alert): { to: string; text: string } | undefined {
  const subject = alert.subject;
  if (alert.kind === 'job-failed') return { to: '/dashboard/jobs', text: 'Operations' };
  if (!subject) return { to: '/profile', text: 'Your profile' };
  switch (subject.type) {
    case 'list':
      return {
        to: `/cloudflare/banlists/${encodeURIComponent(subject.id)}/items`,
        text: `List ${subject.name}`,
      };
    case 'zone':
      return { to: `/cloudflare/zones/${encodeURIComponent(subject.id)}/dns`, text: `Zone ${subject.name}` };
    case 'server':
      return { to: '/servers/list', text: `Server ${subject.name}` };
    case 'account':
    case 'token':
      return { to: '/cloudflare/accounts', text: `Account ${subject.name}` };
    case 'ticket':
      return {
        to: `${alert.kind === 'ticket-waiting' ? '/admin/helpdesk' : '/support/ticket'}?ticket=${encodeURIComponent(subject.id)}`,
        text: `Ticket ${subject.name}`,
      };
  }
}

/** The alerts page: filters, the alerts most recently seen first with Load more, acknowledge and resolve. */
export function AlertsView() {
  // An alert e-mail links to `?kind=<kind>`: the page opens on that kind.
  const [params] = useSearchParams();
  const [filters, setFilters] = useState<AlertFilters>(() => {
    const kind = ALERT_KINDS.find((candidate) => candidate === params.get('kind'));
    return kind ? { ...FIRST_FILTERS, kind } : FIRST_FILTERS;
  });
  const alerts = useAlertsQuery(filters);
  const change = useAlertStateMutation();
  const toast = useToast();
  const filter = (key: keyof AlertFilters) => ({
    value: filters[key],
    onChange: (event: ChangeEvent<HTMLSelectElement>) =>
      setFilters((old) => ({ ...old, [key]: event.target.value })),
  });

  const act = (alert: Alert, action: AlertAction) =>
    change.mutate(
      { alert, action },
      {
        onSuccess: () => toast.success(action === 'acknowledge' ? 'Alert acknowledged.' : 'Alert resolved.'),
        onError: (error) =>
          toast.error(
            actionErrorMessage(
              error,
              action === 'acknowledge' ? 'Failed to acknowledge the alert.' : 'Failed to resolve the alert.',
            ),
          ),
      },
    );
  const busy = (alert: Alert, action: AlertAction) =>
    change.isPending && change.variables?.alert.id === alert.id && change.variables.action === action;

  const rows = alerts.data?.pages.flatMap((page) => page.alerts) ?? [];

  return (
    <>
      <PageHeader
        title="Alerts"
        description="What needs your attention: failed operations, bans Cloudflare refused, API tokens and quotas, and your account's security. The same cause counts on one alert; many resolve by themselves when their cause goes away."
      />

      <form
        aria-label="Filter alerts"
        className="mb-4 grid gap-3 sm:grid-cols-3"
        onSubmit={(event) => event.preventDefault()}
      >
        <StackedLabel text="State">
          <Select {...filter('state')}>
            <option value="active">Open or acknowledged</option>
            <option value="">Any state</option>
            {ALERT_STATES.map((state) => (
              <option key={state} value={state}>
                {ALERT_STATE_LABELS[state]}
              </option>
            ))}
          </Select>
        </StackedLabel>
        <StackedLabel text="Kind">
          <Select {...filter('kind')}>
            <option value="">Every kind</option>
            {ALERT_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {ALERT_KIND_LABELS[kind]}
              </option>
            ))}
          </Select>
        </StackedLabel>
        <StackedLabel text="Severity">
          <Select {...filter('severity')}>
            <option value="">Any severity</option>
            {ALERT_SEVERITIES.map((severity) => (
              <option key={severity} value={severity}>
                {SEVERITIES[severity].label}
              </option>
            ))}
          </Select>
        </StackedLabel>
      </form>

      <QueryList
        query={alerts}
        failed="Failed to fetch alerts."
        loading="Loading alerts..."
        rows={rows}
        empty={
          filters.state === 'active' && !filters.kind && !filters.severity
            ? 'No open alerts: nothing needs your attention.'
            : 'No alerts match these filters.'
        }
      >
        <ol
          aria-label="Alerts"
          className="divide-y divide-line rounded-card border border-line bg-surface shadow-xs"
        >
          {rows.map((alert) => {
            const link = subjectLink(alert);
            const live = alert.state === 'open' || alert.state === 'acknowledged';
            return (
              <li
                key={alert.id}
                aria-label={alert.title}
                className="grid gap-2 px-4 py-3 md:grid-cols-[1fr_auto] md:items-start md:gap-4"
              >
                <div className="min-w-0 text-sm">
                  <div className="mb-1 flex flex-wrap items-center gap-2">
                    <Badge tone={SEVERITIES[alert.severity].tone}>{SEVERITIES[alert.severity].label}</Badge>
                    <Badge tone={STATE_TONES[alert.state]}>{ALERT_STATE_LABELS[alert.state]}</Badge>
                    <span className="text-xs text-ink-muted">{ALERT_KIND_LABELS[alert.kind]}</span>
                  </div>
                  <p className="font-medium break-words text-ink">{alert.title}</p>
                  <p className="mt-1 text-xs text-ink-muted">
                    {alert.count > 1 ? (
                      <>
                        {alert.count.toLocaleString('en-US')} times, first{' '}
                        <time dateTime={alert.first_seen_at}>
                          {when.format(new Date(alert.first_seen_at))}
                        </time>
                        , last{' '}
                      </>
                    ) : (
                      'Seen '
                    )}
                    <time dateTime={alert.last_seen_at}>{when.format(new Date(alert.last_seen_at))}</time>
                    {link && (
                      <>
                        {' · '}
                        <Link
                          to={link.to}
                          className="rounded-control font-medium text-brand underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand"
                        >
                          {link.text}
                        </Link>
                      </>
                    )}
                  </p>
                </div>
                {live && (
                  <div className="flex flex-wrap gap-2 md:justify-end">
                    {alert.state === 'open' && (
                      <Button
                        variant="secondary"
                        size="sm"
                        icon={<Check aria-hidden="true" className="size-4" />}
                        loading={busy(alert, 'acknowledge')}
                        disabled={change.isPending}
                        aria-label={`Acknowledge: ${alert.title}`}
                        onClick={() => act(alert, 'acknowledge')}
                      >
                        Acknowledge
                      </Button>
                    )}
                    <Button
                      variant="secondary"
                      size="sm"
                      icon={<CheckCheck aria-hidden="true" className="size-4" />}
                      loading={busy(alert, 'resolve')}
                      disabled={change.isPending}
                      aria-label={`Resolve: ${alert.title}`}
                      onClick={() => act(alert, 'resolve')}
                    >
                      Resolve
                    </Button>
                  </div>
                )}
              </li>
            );
          })}
        </ol>
      </QueryList>

      <LoadMore query={alerts} />
    </>
  );
}
