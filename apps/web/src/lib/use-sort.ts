import { useCallback, useMemo, useState } from 'react';

export type SortDirection = 'asc' | 'desc';

export interface SortState<K extends string = string> {
  key: K;
  direction: SortDirection;
}

type Sortable = string | number | boolean | Date | null | undefined;

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Orders numbers numerically, text naturally ('zone2' before 'zone10'); empty values always last. */
export function compareValues(a: Sortable, b: Sortable): number {
  const aEmpty = a === null || a === undefined || a === '';
  const bEmpty = b === null || b === undefined || b === '';
  if (aEmpty || bEmpty) return aEmpty === bEmpty ? 0 : aEmpty ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  return collator.compare(String(a), String(b));
}

/** Clicking the sorted column flips its direction; clicking another column sorts it ascending. */
export function nextSort<K extends string>(current: SortState<K>, key: K): SortState<K> {
  if (current.key === key) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { key, direction: 'asc' };
}

export function sortRows<T, K extends string>(
  rows: readonly T[],
  sort: SortState<K>,
  valueOf: (row: T, key: K) => Sortable,
): T[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  // Empty values stay last in both directions, so the sign applies only between two real values.
  return rows
    .map((row, index) => ({ row, index, value: valueOf(row, sort.key) }))
    .sort((a, b) => {
      const aEmpty = a.value === null || a.value === undefined || a.value === '';
      const bEmpty = b.value === null || b.value === undefined || b.value === '';
      const order =
        aEmpty || bEmpty ? compareValues(a.value, b.value) : sign * compareValues(a.value, b.value);
      return order || a.index - b.index;
    })
    .map(({ row }) => row);
}

function fieldValue<T, K extends string>(row: T, key: K): Sortable {
  return (row as Record<string, Sortable>)[key];
}

/**
 * Client-side sorting for a table. By default a column key is a field of the row; pass `valueOf` for
 * computed columns (keep it stable, e.g. defined outside the component).
 *
 *   const { sorted, sort, toggleSort } = useSort(accounts, { key: 'id', direction: 'asc' });
 */
export function useSort<T, K extends string = Extract<keyof T, string>>(
  rows: readonly T[],
  initial: SortState<NoInfer<K>>,
  valueOf: (row: T, key: K) => Sortable = fieldValue,
) {
  const [sort, setSort] = useState(initial);
  const toggleSort = useCallback((key: K) => setSort((current) => nextSort(current, key)), []);
  const sorted = useMemo(() => sortRows(rows, sort, valueOf), [rows, sort, valueOf]);
  return { sorted, sort, toggleSort, setSort };
}
