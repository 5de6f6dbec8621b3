import type { ReportScope } from '@guardian/contract';
import { counted } from '../../../lib/counted';
import { RANGE_LABELS } from '../lib/filters';

const readAt = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

/** What a report covers: its range, the zones read, and the zones left out with why. */
export function ScopeLine({ scope }: { scope: ReportScope }) {
  const leftOut = scope.left_out.length + scope.left_out_more;
  return (
    <div className="space-y-1 text-sm text-ink-muted">
      <p>
        {RANGE_LABELS[scope.range]} · {counted(scope.zone_count, 'zone')} read
        {leftOut > 0 && ` · ${counted(leftOut, 'zone')} left out`} · read from Cloudflare at{' '}
        <time dateTime={scope.read_at}>{readAt.format(new Date(scope.read_at))}</time>
      </p>
      {scope.zone_count === 0 && leftOut === 0 && (
        <p>You have no zones to report on yet: add a Cloudflare account with zones in Accounts.</p>
      )}
      {leftOut > 0 && (
        <ul aria-label="Zones left out" className="list-inside list-disc">
          {scope.left_out.map((zone) => (
            <li key={zone.zone_id}>
              <span className="font-medium text-ink">{zone.domain}</span>: {zone.message}
            </li>
          ))}
          {scope.left_out_more > 0 && <li>and {counted(scope.left_out_more, 'more zone')}</li>}
        </ul>
      )}
    </div>
  );
}
