import {
  Fragment,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  type ComponentProps,
  type HTMLAttributes,
  type ReactElement,
  type ReactNode,
} from 'react';
import { clsx } from 'clsx';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import type { SortState } from '../../lib/use-sort';
import { Spinner } from './spinner';

/** Below Tailwind's sm breakpoint every table shows its rows as cards. */
const PHONE_SCREEN = '(width < 40rem)';

/**
 * Sets `data-layout="cards"` on the frame on a phone, and wherever the columns do not fit the width
 * the table has (a laptop with the sidebar open, a tablet): the table never scrolls sideways and no
 * row action falls off-screen. It measures the table laid out as a table each time, so it returns
 * to a table as soon as the columns fit again. The attribute is set on the DOM directly, before
 * paint, so the rows never flash in the wrong layout; React never renders it.
 *
 * A column's minimum width is its longest word: a cell of free text (a comment, an e-mail, a URL)
 * wraps anywhere (`wrap-anywhere`, not `break-words`, which keeps the word's width) or is cut with a
 * tooltip, so long content never turns a laptop's table into cards (see the ban list items table).
 */
function useCardLayout() {
  const frameRef = useRef<HTMLDivElement>(null);
  const tableRef = useRef<HTMLTableElement>(null);

  const decide = useCallback(() => {
    const frame = frameRef.current;
    const table = tableRef.current;
    if (!frame || !table) return;
    if (window.matchMedia(PHONE_SCREEN).matches) {
      frame.dataset.layout = 'cards';
      return;
    }
    frame.dataset.layout = 'table';
    // A table never shrinks below its columns' minimum widths: wider than its frame means it does not fit.
    frame.dataset.layout = table.offsetWidth > frame.clientWidth + 1 ? 'cards' : 'table';
  }, []);

  // After every render: the rows, and so the columns' widths, may have changed.
  useLayoutEffect(decide);

  useEffect(() => {
    const frame = frameRef.current;
    if (!frame) return;
    let pending = 0;
    // Decided in the next frame: changing the layout inside the observer's callback would loop.
    const later = () => {
      cancelAnimationFrame(pending);
      pending = requestAnimationFrame(decide);
    };
    const phone = window.matchMedia(PHONE_SCREEN);
    phone.addEventListener('change', later);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(later);
    observer?.observe(frame);
    return () => {
      cancelAnimationFrame(pending);
      phone.removeEventListener('change', later);
      observer?.disconnect();
    };
  }, [decide]);

  return { frameRef, tableRef };
}

interface TableProps extends HTMLAttributes<HTMLTableElement> {
  /** Names the table for screen readers (visually hidden caption). */
  caption?: string;
  /** Dims the table and marks it busy, e.g. while a reorder saves. */
  busy?: boolean;
}

/**
 * The one table of the console: a table in a card whose header row stays in sight below the top bar
 * while a long page scrolls; on a phone, or wherever its columns do not fit, every row becomes a card
 * (the `cards:` variant): each cell a "label: value" line, the actions cells a row of buttons at the
 * card's foot. The ARIA table roles are explicit so that the cards keep table semantics (a browser
 * drops a table's implicit roles when its display changes).
 */
export function Table({ caption, busy, className, children, ...props }: TableProps) {
  const { frameRef, tableRef } = useCardLayout();
  return (
    <div
      ref={frameRef}
      className={clsx(
        // clip, not auto: a scrolling frame would hold the sticky header inside it.
        'overflow-clip rounded-card border border-line bg-surface shadow-xs transition-opacity',
        'cards:overflow-visible cards:rounded-none cards:border-0 cards:bg-transparent cards:shadow-none',
        busy && 'pointer-events-none opacity-60',
      )}
      aria-busy={busy || undefined}
    >
      <table
        ref={tableRef}
        role="table"
        className={clsx('w-full border-collapse text-left text-sm cards:block', className)}
        {...props}
      >
        {caption && <caption className="sr-only">{caption}</caption>}
        {children}
      </table>
    </div>
  );
}

/**
 * The header row (pass the header cells). On the cards it becomes a bar of the sortable columns'
 * buttons; the other headers stay for screen readers only.
 */
export function TableHead({ className, children, ...props }: ComponentProps<'thead'>) {
  return (
    <thead role="rowgroup" className={clsx('cards:block', className)} {...props}>
      <tr role="row" className="cards:flex cards:flex-wrap cards:gap-2 cards:has-[button]:mb-3">
        {children}
      </tr>
    </thead>
  );
}

export function TableBody({ className, ...props }: ComponentProps<'tbody'>) {
  return (
    <tbody
      role="rowgroup"
      className={clsx('divide-y divide-line cards:block cards:space-y-3 cards:divide-y-0', className)}
      {...props}
    />
  );
}

const cardClassName =
  'cards:overflow-clip cards:rounded-card cards:border cards:border-line cards:bg-surface cards:shadow-xs';

/** A row; extra props and ref pass through (a drag-and-drop row needs both). */
export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
  return (
    <tr
      role="row"
      className={clsx(
        'transition-colors hover:bg-canvas/60',
        cardClassName,
        'cards:flex cards:flex-wrap cards:py-2 cards:hover:bg-surface',
        className,
      )}
      {...props}
    />
  );
}

/** A cell's padding; a cell whose content carries the padding (`flush`) puts it on that content. */
export const tableCellPaddingClassName = 'px-3 py-3 xl:px-4';

const headerTextClassName = 'text-xs font-semibold tracking-wide whitespace-nowrap text-ink-muted uppercase';
// Sticky below the top bar; the line under the header is a shadow, as a collapsed border stays behind.
const headerCellClassName = clsx(
  'sticky top-(--top-bar-height) z-10 bg-canvas shadow-[inset_0_-1px_0_var(--color-line)]',
  'cards:static cards:shadow-none',
);

export function TableHeaderCell({ className, ...props }: ComponentProps<'th'>) {
  return (
    <th
      scope="col"
      role="columnheader"
      className={clsx(
        headerCellClassName,
        headerTextClassName,
        tableCellPaddingClassName,
        'cards:sr-only',
        className,
      )}
      {...props}
    />
  );
}

interface SortableHeaderCellProps<K extends string> {
  column: K;
  sort: SortState<K>;
  onSort: (column: K) => void;
  className?: string;
  children: ReactNode;
}

/**
 * A column header that sorts on click and says its direction (aria-sort and an arrow). On the cards
 * it is a button of the sort bar above them.
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
      role="columnheader"
      aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none'}
      // The button carries the padding, so the whole header is the click target and lines up with the cells.
      className={clsx(headerCellClassName, headerTextClassName, 'cards:bg-transparent', className)}
    >
      <button
        type="button"
        onClick={() => onSort(column)}
        className={clsx(
          'inline-flex w-full items-center gap-1.5 text-left font-semibold tracking-wide uppercase hover:text-ink',
          tableCellPaddingClassName,
          'cards:rounded-full cards:border cards:border-line-strong cards:bg-surface cards:px-3 cards:py-1.5',
          active && 'text-ink cards:border-brand cards:bg-brand-soft',
        )}
      >
        {children}
        <Icon aria-hidden="true" className={clsx('size-3.5 shrink-0', !active && 'opacity-50')} />
      </button>
    </th>
  );
}

interface TableCellProps extends ComponentProps<'td'> {
  /**
   * The column's header text, shown before the value when the row is a card. Required: a card has no
   * header row to say what its values are (the web tests check it equals the column's header).
   */
  label: string;
  /** The content carries the padding itself, e.g. a drag handle that fills the cell. */
  flush?: boolean;
}

/** A value cell: a "label: value" line of the card on a phone. */
export function TableCell({ label, flush, className, ...props }: TableCellProps) {
  return (
    <td
      role="cell"
      data-label={label}
      className={clsx(
        'align-middle text-ink',
        !flush && tableCellPaddingClassName,
        'cards:grid cards:w-auto cards:max-w-none cards:min-w-0 cards:basis-full cards:grid-cols-[8.5rem_minmax(0,1fr)] cards:items-baseline cards:justify-items-start cards:gap-3 cards:px-4 cards:py-1.5 cards:wrap-anywhere cards:whitespace-normal',
        // The label is drawn, not read: screen readers have the column header (`/ ''` is its empty alt text).
        "cards:before:content-[attr(data-label)_/_'']",
        // The label keeps one look whatever the value's font (a mono id, a bold type).
        'cards:before:font-sans cards:before:text-sm cards:before:font-normal cards:before:tracking-normal cards:before:text-ink-muted cards:before:normal-case',
        className,
      )}
      {...props}
    />
  );
}

interface TableActionsCellProps extends Omit<ComponentProps<'td'>, 'align'> {
  /** The column's header text (the web tests check it equals the column's header). */
  label: string;
  /** Where the buttons sit in the table's column; on a card they always start at the left. */
  align?: 'start' | 'end';
}

/**
 * A cell of row actions. On a card the actions cells of a row line up at its foot, one strip of
 * buttons, always in sight.
 */
export function TableActionsCell({
  label,
  align = 'start',
  className,
  children,
  ...props
}: TableActionsCellProps) {
  return (
    <td
      role="cell"
      data-label={label}
      data-actions=""
      className={clsx(
        tableCellPaddingClassName,
        'align-middle text-ink',
        'cards:mt-2 cards:-mb-2 cards:w-auto cards:flex-none cards:border-t cards:border-line cards:bg-canvas/60 cards:py-2 cards:last:grow',
        // The first action of the foot lines up with the labels; the next ones follow it closely.
        'cards:pl-4 cards:[[data-actions]+&]:pl-0 cards:pr-2',
        className,
      )}
      {...props}
    >
      <div
        className={clsx(
          'flex items-center gap-2',
          align === 'end' && 'justify-end',
          'cards:justify-start',
          // A link among a card's actions (a zone's DNS, Rules) looks like the buttons beside it.
          'cards:[&>a]:inline-flex cards:[&>a]:h-9 cards:[&>a]:items-center cards:[&>a]:rounded-control cards:[&>a]:border cards:[&>a]:border-line-strong cards:[&>a]:bg-surface cards:[&>a]:px-3 cards:[&>a]:no-underline',
        )}
      >
        {children}
      </div>
    </td>
  );
}

interface TableMessageRowProps {
  /** How many columns the message spans: the table's column count. */
  colSpan: number;
  children?: ReactNode;
}

function TableMessageRow({ colSpan, children }: TableMessageRowProps) {
  return (
    <tr role="row" className={clsx(cardClassName, 'cards:block')}>
      <td role="cell" colSpan={colSpan} className="px-4 py-10 text-center text-ink-muted cards:block">
        {children}
      </td>
    </tr>
  );
}

/** The one row shown while the rows load ('Loading Firewall Rules...'). */
export function TableLoadingRow({ colSpan, children = 'Loading...' }: TableMessageRowProps) {
  return (
    <TableMessageRow colSpan={colSpan}>
      <span role="status" className="inline-flex items-center gap-2">
        <Spinner size="sm" label={null} className="text-brand" />
        {children}
      </span>
    </TableMessageRow>
  );
}

/** The one row shown when there is nothing to list ('No firewall rules found.'). */
export function TableEmptyRow({ colSpan, children }: TableMessageRowProps) {
  return <TableMessageRow colSpan={colSpan}>{children}</TableMessageRow>;
}

interface TableRowsProps<T> {
  /** The table's column count: the loading and empty rows span it. */
  colSpan: number;
  /** Whether the rows are loading; rows still undefined count as loading too. */
  loading?: boolean;
  /** Said beside the spinner while the rows load ('Loading zones...'). */
  loadingText: string;
  rows: readonly T[] | undefined;
  /** Said when there are no rows ('No zones found.'). */
  empty: ReactNode;
  /** One row (a `TableRow` with its key) for each of `rows`. */
  children: (row: T, index: number) => ReactNode;
}

/** A table body's rows: the loading row while they load, the empty row when there are none, else each row. */
export function TableRows<T>({ colSpan, loading, loadingText, rows, empty, children }: TableRowsProps<T>) {
  if (loading || rows === undefined)
    return <TableLoadingRow colSpan={colSpan}>{loadingText}</TableLoadingRow>;
  if (rows.length === 0) return <TableEmptyRow colSpan={colSpan}>{empty}</TableEmptyRow>;
  return <>{rows.map((row, index) => children(row, index))}</>;
}

/**
 * A column's header: its text; its text with a class; or a header cell of its own (a sortable one).
 * A column that is false is not shown.
 */
export type TableColumn = string | { label: ReactNode; className: string } | ReactElement | false;

interface DataTableProps<T> extends Omit<TableRowsProps<T>, 'colSpan'> {
  /** Names the table for screen readers. */
  caption: string;
  /** Dims the table and marks it busy. */
  busy?: boolean;
  /** The columns' headers, in order; the loading and empty rows span them. */
  columns: readonly TableColumn[];
}

/**
 * A whole table: its header row over its rows (`TableRows`: loading, empty, or each row).
 *
 *   <DataTable caption="Zones" columns={['Domain', 'Status']} rows={zones} loading={loading}
 *     loadingText="Loading zones..." empty="No zones found.">
 *     {(zone) => <TableRow key={zone.id}>...</TableRow>}
 *   </DataTable>
 */
export function DataTable<T>({ caption, busy, columns, ...rows }: DataTableProps<T>) {
  const shown = columns.filter((column): column is Exclude<TableColumn, false> => column !== false);
  return (
    <Table caption={caption} busy={busy}>
      <TableHead>
        {shown.map((column, index) =>
          typeof column === 'string' ? (
            <TableHeaderCell key={index}>{column}</TableHeaderCell>
          ) : 'label' in column ? (
            <TableHeaderCell key={index} className={column.className}>
              {column.label}
            </TableHeaderCell>
          ) : (
            <Fragment key={index}>{column}</Fragment>
          ),
        )}
      </TableHead>
      <TableBody>
        <TableRows colSpan={shown.length} {...rows} />
      </TableBody>
    </Table>
  );
}
