import type { ReactNode } from 'react';
import { clsx } from 'clsx';

export type BadgeTone = 'green' | 'yellow' | 'blue' | 'grey' | 'red';

const tones: Record<BadgeTone, string> = {
  green: 'bg-success-soft text-success ring-success/25',
  yellow: 'bg-warning-soft text-warning ring-warning/30',
  blue: 'bg-brand-soft text-brand-hover ring-brand/25',
  grey: 'bg-slate-100 text-ink-muted ring-slate-400/30',
  red: 'bg-danger-soft text-danger-hover ring-danger/25',
};

/** `<Badge tone="green">Active</Badge>` */
export function Badge({
  tone = 'grey',
  className,
  children,
}: {
  tone?: BadgeTone;
  className?: string;
  children: ReactNode;
}) {
  return (
    <span
      className={clsx(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        tones[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}
