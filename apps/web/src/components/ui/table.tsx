import type { ComponentProps, HTMLAttributes, ReactNode } from 'react';
import { clsx } from 'clsx';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import type { SortState } from '../../lib/use-sort';
import { Spinner } from './spinner';

interface TableProps extends HTMLAttributes<HTMLTableElement> {
  /** Names the table for screen readers (visually hidden caption). */
  caption?: string;
  /** Dims the table and marks it busy, e.g. while a reorder saves. */
  busy?: boolean;
}

/** A semantic table in a card; it scrolls sideways on a phone instead of squeezing its columns. */
export function Table({ caption, busy, className, children, ...props }: TableProps) {
  return (
    <div
      className={clsx(
        'overflow-x-auto rounded-card border border-line bg-surface shadow-xs transition-opacity',
        busy && 'pointer-events-none opacity-60',
      )}
      aria-busy={busy || undefined}
    >
      <table className={clsx('w-full border-collapse text-left text-sm', className)} {...props}>
        {caption && <caption className="sr-only">{caption}</caption>}
        {children}
      </table>
    </div>
  );
}

export function TableHead({ className, ...props }: ComponentProps<'thead'>) {
  return <thead className={clsx('border-b border-line bg-canvas/70', className)} {...props} />;
}

export function TableBody({ className, ...props }: ComponentProps<'tbody'>) {
  return <tbody className={clsx('divide-y divide-line', className)} {...props} />;
}

/** A row; extra props and ref pass through (a drag-and-drop row needs both). */
export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
  return <tr className={clsx('transition-colors hover:bg-canvas/60', className)} {...props} />;
}

const headerTextClassName = 'text-xs font-semibold tracking-wide whitespace-nowrap text-ink-muted uppercase';
const headerCellClassName = `px-4 py-3 ${headerTextClassName}`;

export function TableHeaderCell({ className, ...props }: ComponentProps<'th'>) {
  return <th scope="col" className={clsx(headerCellClassName, className)} {...props} />;
}

interface SortableHeaderCellProps<K extends string> {
  column: K;
  sort: SortState<K>;
  onSort: (column: K) => void;
  className?: string;
  children: ReactNode;
}

/**
 * A column header that sorts on click and says its direction (aria-sort and an arrow).
 *
 *   <SortableHeaderCell column="account_name" sort={sort} onSort={toggleSort}>Account Name</SortableHeaderCell>
 */
export function SortableHeaderCell<K extends string>({
  column,
  sort,
  onSort,
  className,
  children,
}: SortableHeaderCellProps<K>) {
  const active = sort.key === column;
  const direction = active ? sort.direction : null;
  const Icon = direction === 'asc' ? ArrowUp : direction === 'desc' ? ArrowDown : ArrowUpDown;
  return (
    <th
      scope="col"
      aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none'}
      // The button carries the padding, so the whole header is the click target and lines up with the cells.
      className={clsx(headerTextClassName, className)}
    >
      <button
        type="button"
        onClick={() => onSort(column)}
        className={clsx(
          'inline-flex w-full items-center gap-1.5 px-4 py-3 text-left font-semibold tracking-wide uppercase hover:text-ink',
          active && 'text-ink',
        )}
      >
        {children}
        <Icon aria-hidden="true" className={clsx('size-3.5 shrink-0', !active && 'opacity-50')} />
      </button>
    </th>
  );
}

export function TableCell({ className, ...props }: ComponentProps<'td'>) {
  return <td className={clsx('px-4 py-3 align-middle text-ink', className)} {...props} />;
}

interface TableMessageRowProps {
  /** How many columns the message spans: the table's column count. */
  colSpan: number;
  children?: ReactNode;
}

/** The one row shown while the rows load ('Loading Firewall Rules...'). */
export function TableLoadingRow({ colSpan, children = 'Loading...' }: TableMessageRowProps) {
  return (
    <tr>
      <td colSpan={colSpan} className="px-4 py-10 text-center text-ink-muted">
        <span role="status" className="inline-flex items-center gap-2">
          <Spinner size="sm" label={null} className="text-brand" />
          {children}
        </span>
      </td>
    </tr>
  );
}

/** The one row shown when there is nothing to list ('No firewall rules found.'). */
export function TableEmptyRow({ colSpan, children }: TableMessageRowProps) {
  return (
    <tr>
      <td colSpan={colSpan} className="px-4 py-10 text-center text-ink-muted">
        {children}
      </td>
    </tr>
  );
}
