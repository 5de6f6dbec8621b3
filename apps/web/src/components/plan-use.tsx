import { Gauge } from 'lucide-react';
import { PLAN_LIMIT_LABELS, REPORT_RANGE_WORDS, type PlanUse as PlanUseEntry } from '@guardian/contract';
import { useOwnPlanQuery } from '../api/plans/own-plan-query';
import { errorMessage } from '../lib/api';
import { Card, CardTitle } from './ui/card';
import { ErrorMessage } from './ui/error-message';
import { Spinner } from './ui/spinner';

/**
 * The signed-in person's plan and their use of each limit ("Cloudflare accounts 1 of 2"), a bar each
 * (amber from 85%, red when full): on the profile and the overview.
 */
export function PlanUse({ className }: { className?: string }) {
  const plan = useOwnPlanQuery();
  return (
    <Card id="plan-use" className={className}>
      <CardTitle id="plan-use" icon={Gauge}>
        Your plan{plan.data ? `: ${plan.data.name}` : ''}
      </CardTitle>
      {plan.isPending && <Spinner size="sm" label="Loading your plan..." className="mt-3" />}
      {plan.isError && (
        <ErrorMessage className="mt-3" onRetry={() => void plan.refetch()}>
          {errorMessage(plan.error, 'Failed to load your plan.')}
        </ErrorMessage>
      )}
      {plan.data && (
        <>
          <p className="text-sm text-ink-muted">
            What you may add, and what you use. Reports reach back{' '}
            {REPORT_RANGE_WORDS[plan.data.report_range]}.
          </p>
          <ul className="mt-3 grid gap-x-6 gap-y-3 sm:grid-cols-2">
            {plan.data.use.map((entry) => (
              <UseRow key={entry.limit} entry={entry} />
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}

function UseRow({ entry }: { entry: PlanUseEntry }) {
  const share = entry.allowed === 0 ? 1 : Math.min(1, entry.used / entry.allowed);
  const tone = entry.used >= entry.allowed ? 'bg-danger' : share >= 0.85 ? 'bg-warning' : 'bg-brand';
  const label = PLAN_LIMIT_LABELS[entry.limit];
  const text = `${entry.used.toLocaleString('en-US')} of ${entry.allowed.toLocaleString('en-US')}`;
  return (
    <li className="text-sm">
      <div className="flex items-baseline justify-between gap-3">
        <span className="text-ink">{label}</span>
        <span className="whitespace-nowrap text-ink-muted tabular-nums">{text}</span>
      </div>
      <div
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={entry.allowed}
        aria-valuenow={Math.min(entry.used, entry.allowed)}
        aria-valuetext={text}
        className="mt-1 h-1.5 overflow-hidden rounded-full bg-line"
      >
        <div className={`h-full ${tone}`} style={{ width: `${Math.round(share * 100)}%` }} />
      </div>
      {entry.limit === 'templates' && (
        <p className="mt-0.5 text-xs text-ink-muted">Counted once templates exist.</p>
      )}
    </li>
  );
}
