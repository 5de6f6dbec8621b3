import { useId, useState, type ReactNode } from 'react';
import { clsx } from 'clsx';
import { Table2 } from 'lucide-react';

interface ChartFrameProps {
  title: string;
  /** A line under the title (what is counted, the time zone). */
  description?: ReactNode;
  /** The chart's numbers as a table: visually hidden until "Show as table", always read by screen readers. */
  table?: ReactNode;
  /** Said in place of the chart when there is nothing to draw ("No events in this range"). */
  empty?: string | null;
  className?: string;
  children: ReactNode;
}

/**
 * A chart's card: its title, the drawing (hidden from screen readers, which read the table instead), and
 * its numbers as a table behind "Show as table" (in the page all along for screen readers and copying).
 */
export function ChartFrame({ title, description, table, empty, className, children }: ChartFrameProps) {
  const titleId = useId();
  const tableId = useId();
  const [showTable, setShowTable] = useState(false);
  return (
    <section
      aria-labelledby={titleId}
      className={clsx('min-w-0 rounded-card border border-line bg-surface p-4 shadow-xs', className)}
    >
      <div className="mb-3 flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={titleId} className="text-base font-semibold text-ink">
            {title}
          </h2>
          {description && <p className="text-xs text-ink-muted">{description}</p>}
        </div>
        {table && !empty && (
          <button
            type="button"
            aria-expanded={showTable}
            aria-controls={tableId}
            onClick={() => setShowTable((shown) => !shown)}
            className="inline-flex items-center gap-1 rounded-control px-2 py-1 text-sm font-medium text-brand hover:bg-brand-soft focus-visible:outline-2 focus-visible:outline-brand"
          >
            <Table2 aria-hidden="true" className="size-4" />
            {showTable ? 'Hide table' : 'Show as table'}
          </button>
        )}
      </div>
      {empty ? (
        <p className="flex min-h-24 items-center justify-center rounded-control bg-canvas px-4 text-sm text-ink-muted">
          {empty}
        </p>
      ) : (
        <>
          {children}
          {table && (
            <div id={tableId} className={showTable ? undefined : 'sr-only'}>
              {table}
            </div>
          )}
        </>
      )}
    </section>
  );
}
