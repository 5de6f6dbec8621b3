import type { ReportScope } from '@guardian/contract';
import { Spinner } from '../../../components/ui/spinner';
import { counted } from '../../../lib/counted';
import { RANGE_LABELS } from '../lib/filters';

const readAt = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const whole = new Intl.NumberFormat('en-US');

/**
 * A report still being read (many zones take Cloudflare several seconds): the figures below are those
 * of the zones read so far, and the page asks again until all are read.
 */
function ReadingProgress({ scope }: { scope: ReportScope }) {
  const percent = scope.zone_count === 0 ? 0 : Math.round((scope.zones_read / scope.zone_count) * 100);
  const words = `Read ${whole.format(scope.zones_read)} of ${whole.format(scope.zone_count)} zones…`;
  return (
    <div className="rounded-card border border-line bg-surface px-4 py-3 shadow-xs">
      <div className="flex items-center gap-2">
        <Spinner size="sm" label={null} className="shrink-0 text-brand" />
        <p className="text-ink">
          <span className="font-medium tabular-nums">{words}</span> The figures below are the zones read so
          far; they fill in as the rest arrive.
        </p>
      </div>
      <div
        role="progressbar"
        aria-label="Zones read from Cloudflare"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={words}
        className="mt-3 h-1.5 overflow-hidden rounded-full bg-line"
      >
        <div className="h-full bg-brand transition-[width]" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

/** What a report covers: its range, the zones read, and the zones left out with why. */
export function ScopeLine({ scope }: { scope: ReportScope }) {
  const leftOut = scope.left_out.length + scope.left_out_more;
  return (
    <div className="space-y-1 text-sm text-ink-muted">
      {!scope.complete && <ReadingProgress scope={scope} />}
      <p>
        {RANGE_LABELS[scope.range]} ·{' '}
        {scope.complete
          ? `${counted(scope.zone_count, 'zone')} read`
          : `${counted(scope.zones_read, 'zone')} read so far`}
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
