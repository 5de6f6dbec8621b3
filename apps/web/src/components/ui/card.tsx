import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';

/**
 * A card of a page (a profile or settings section, the plan's use): a section named by its heading,
 * the `CardTitle` of the same `id` (whose element id is `<id>-title`).
 */
export function Card({ id, className, children }: { id: string; className?: string; children: ReactNode }) {
  return (
    <section
      aria-labelledby={`${id}-title`}
      className={clsx('rounded-card border border-line bg-surface p-5 shadow-xs', className)}
    >
      {children}
    </section>
  );
}

/** A card's heading, after its icon. */
export function CardTitle({
  id,
  icon: Icon,
  children,
}: {
  id: string;
  icon: LucideIcon;
  children: ReactNode;
}) {
  return (
    <h2 id={`${id}-title`} className="flex items-center gap-2 text-base font-semibold text-ink">
      <Icon aria-hidden="true" className="size-4 text-ink-muted" />
      {children}
    </h2>
  );
}
