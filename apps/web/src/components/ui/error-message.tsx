import type { ReactNode } from 'react';
import { clsx } from 'clsx';
import { AlertCircle } from 'lucide-react';

/**
 * The red message of a failed load or save. A screen whose load fails renders this instead of its
 * content (spec section 4); a dialog shows it above its footer.
 */
export function ErrorMessage({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div
      role="alert"
      className={clsx(
        'flex items-start gap-2 rounded-control border border-danger/30 bg-danger-soft px-4 py-3 text-sm text-danger-hover',
        className,
      )}
    >
      <AlertCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <div className="min-w-0 break-words">{children}</div>
    </div>
  );
}
