import type { ReactNode } from 'react';
import { DataTable, TableCell, TableRow } from '../ui/table';
import { ChartFrame } from './chart-frame';
import { formatCount } from './format';

export interface BarColumn<T> {
  header: string;
  cell: (row: T) => ReactNode;
  className?: string;
}

interface BarTableProps<T> {
  title: string;
  description?: ReactNode;
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** The first columns (what is counted: an address, a country...), before the bar and its count. */
  columns: BarColumn<T>[];
  count: (row: T) => number;
  /** The count's column header ("Events", "Requests"). */
  countLabel: string;
  format?: (value: number) => string;
  /** Said when there are no rows ("No events in this range"). */
  empty: string;
}

/**
 * A bar chart that is its own table: each row its value, a bar as long as its share of the largest, and
 * the number itself. The bars are drawn for the eye only; screen readers and copying get the numbers.
 */
export function BarTable<T>({
  title,
  description,
  rows,
  rowKey,
  columns,
  count,
  countLabel,
  format = formatCount,
  empty,
}: BarTableProps<T>) {
  const largest = Math.max(1, ...rows.map(count));
  return (
    <ChartFrame title={title} description={description} empty={rows.length === 0 ? empty : null}>
      <DataTable
        caption={title}
        columns={[...columns.map((column) => column.header), countLabel]}
        rows={rows}
        loadingText="Loading..."
        empty={empty}
      >
        {(row) => (
          <TableRow key={rowKey(row)}>
            {columns.map((column) => (
              <TableCell key={column.header} label={column.header} className={column.className}>
                {column.cell(row)}
              </TableCell>
            ))}
            <TableCell label={countLabel} className="w-2/5 min-w-32">
              <span className="flex items-center gap-2">
                <span aria-hidden="true" className="h-2 flex-1 overflow-hidden rounded-full bg-canvas">
                  <span
                    className="block h-full rounded-full bg-brand"
                    style={{ width: `${(count(row) / largest) * 100}%` }}
                  />
                </span>
                <span className="w-16 shrink-0 text-right tabular-nums">{format(count(row))}</span>
              </span>
            </TableCell>
          </TableRow>
        )}
      </DataTable>
    </ChartFrame>
  );
}
