import type { LucideIcon } from 'lucide-react';
import { clsx } from 'clsx';

interface StatTileProps {
  label: string;
  /** The figure; null when there is none (not read yet, or its source says why in `detail`). */
  value: string | null;
  /** One line under the figure: what it counts, or why there is no figure. */
  detail: string | null;
  loading?: boolean;
  icon: LucideIcon;
  /** Tailwind classes of the icon's badge. */
  accent: string;
}

export function StatTile({ label, value, detail, loading, icon: Icon, accent }: StatTileProps) {
  return (
    <div className="flex items-start gap-4 rounded-card border border-line bg-surface p-5 shadow-xs">
      <span
        aria-hidden="true"
        className={clsx('flex size-12 shrink-0 items-center justify-center rounded-card', accent)}
      >
        <Icon className="size-6" />
      </span>
      <dl className="min-w-0 flex-1">
        <dt className="text-sm text-ink-muted">{label}</dt>
        {loading ? (
          <dd>
            <span className="sr-only">Loading</span>
            <span aria-hidden="true" className="mt-1 block h-7 w-20 animate-pulse rounded bg-line" />
            <span aria-hidden="true" className="mt-2 block h-3 w-32 animate-pulse rounded bg-line" />
          </dd>
        ) : (
          <>
            {value !== null && (
              <dd className="text-2xl font-semibold tracking-tight text-ink tabular-nums">{value}</dd>
            )}
            {detail && (
              <dd className={clsx('text-xs', value === null ? 'mt-1 text-sm text-ink' : 'text-ink-muted')}>
                {detail}
              </dd>
            )}
          </>
        )}
      </dl>
    </div>
  );
}
