import { useMemo, useState } from 'react';

export function pageCountOf(rowCount: number, pageSize: number): number {
  return Math.max(1, Math.ceil(rowCount / pageSize));
}

/**
 * Client-side pagination (spec section 9: pages are cut in the browser). Pages are numbered from 1.
 * When the rows shrink (a search, a delete) the page is kept within range.
 *
 *   const { pageRows, page, pageCount, setPage } = usePagedRows(sorted, PAGE_SIZE.accounts);
 */
export function usePagedRows<T>(rows: readonly T[], pageSize: number, initialPage = 1) {
  const [requestedPage, setPage] = useState(initialPage);
  const pageCount = pageCountOf(rows.length, pageSize);
  const page = Math.min(Math.max(1, requestedPage), pageCount);
  const pageRows = useMemo(() => rows.slice((page - 1) * pageSize, page * pageSize), [rows, page, pageSize]);
  /** Row number (1-based) of the first row on this page, for a "No" column. */
  const firstRowNumber = (page - 1) * pageSize + 1;
  return { pageRows, page, pageCount, setPage, firstRowNumber };
}
