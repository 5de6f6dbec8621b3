import type { ReactElement, ReactNode } from 'react';
import type { SortState } from '../../lib/use-sort';
import { DataTable, SortableHeaderCell, TableCell, TableRow, type TableColumn } from './table';

/** What a screen hands its paged, sortable table. */
export interface PagedTableProps<T, K extends string> {
  rows: T[];
  /** The row number of the first row: the "No" column counts across pages. */
  firstRowNumber: number;
  loading: boolean;
  sort: SortState<K>;
  onSort: (column: K) => void;
}

/** Makes a sortable column's header: `header('domain', 'Domain')`. */
type SortableHeader<K extends string> = (column: K, label: ReactNode, className?: string) => ReactElement;

interface PagedDataTableProps<T extends { id: string | number }, K extends string> {
  /** What the screen handed the table. */
  table: PagedTableProps<T, K>;
  caption: string;
  /** The column the "No" column sorts by, when it sorts. */
  numberSort?: K;
  /** The columns after "No". */
  columns: (header: SortableHeader<K>) => TableColumn[];
  loadingText: string;
  empty: ReactNode;
  /** A row's cells after its number. */
  children: (row: T) => ReactNode;
}

/** A page of a longer list: each row numbered ("No") across pages, the columns sortable by the server. */
export function PagedDataTable<T extends { id: string | number }, K extends string>({
  table: { rows, firstRowNumber, loading, sort, onSort },
  caption,
  numberSort,
  columns,
  loadingText,
  empty,
  children,
}: PagedDataTableProps<T, K>) {
  const header: SortableHeader<K> = (column, label, className) => (
    <SortableHeaderCell column={column} sort={sort} onSort={onSort} className={className}>
      {label}
    </SortableHeaderCell>
  );
  return (
    <DataTable
      caption={caption}
      columns={[numberSort ? header(numberSort, 'No') : 'No', ...columns(header)]}
      loading={loading}
      loadingText={loadingText}
      rows={rows}
      empty={empty}
    >
      {(row, index) => (
        <TableRow key={row.id}>
          <TableCell label="No" className="text-ink-muted tabular-nums">
            {firstRowNumber + index}
          </TableCell>
          {children(row)}
        </TableRow>
      )}
    </DataTable>
  );
}
