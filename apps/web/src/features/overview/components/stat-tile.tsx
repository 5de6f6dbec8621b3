import type { LucideIcon } from 'lucide-react';
import { clsx } from 'clsx';

interface StatTileProps {
  label: string;
  value: string;
  icon: LucideIcon;
  /** Tailwind classes of the icon's badge. */
  accent: string;
}

export function StatTile({ label, value, icon: Icon, accent }: StatTileProps) {
  return (
    <div className="flex items-center gap-4 rounded-card border border-line bg-surface p-5 shadow-xs">
      <span
        aria-hidden="true"
        className={clsx('flex size-12 shrink-0 items-center justify-center rounded-card', accent)}
      >
        <Icon className="size-6" />
      </span>
      <dl className="min-w-0">
        <dt className="text-sm text-ink-muted">{label}</dt>
        <dd className="text-2xl font-semibold tracking-tight text-ink">{value}</dd>
      </dl>
    </div>
  );
}
