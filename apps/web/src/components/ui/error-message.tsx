import type { ReactNode } from 'react';
import { clsx } from 'clsx';
import { AlertCircle, RotateCw } from 'lucide-react';

/**
 * The red message of a failed load or save. A screen whose load fails renders this instead of its
 * content (spec section 4); a dialog shows it above its footer.
 */
export function ErrorMessage({
  children,
  className,
  onRetry,
}: {
  children: ReactNode;
  className?: string;
  /** A failed load offers Retry: an error state is never a dead end. */
  onRetry?: () => void;
}) {
  // The alert holds the message alone, so a screen reader announces the words and not "Retry".
  return (
    <div
      className={clsx(
        'flex items-start gap-2 rounded-control border border-danger/30 bg-danger-soft px-4 py-3 text-sm text-danger-hover',
        className,
      )}
    >
      <AlertCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <div role="alert" className="min-w-0 flex-1 break-words">
        {children}
      </div>
      {onRetry && (
        <button
          type="button"
          onClick={onRetry}
          className="-my-1 inline-flex shrink-0 items-center gap-1 rounded-control px-2 py-1 font-semibold text-danger-hover underline-offset-2 hover:bg-danger/10 hover:underline"
        >
          <RotateCw aria-hidden="true" className="size-3.5" />
          Retry
        </button>
      )}
    </div>
  );
}
