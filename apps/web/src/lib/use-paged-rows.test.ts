import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { usePagedRows } from './use-paged-rows';

const rows = Array.from({ length: 45 }, (_, index) => index + 1);

describe('usePagedRows', () => {
  it('cuts the rows into pages numbered from 1', () => {
    const { result } = renderHook(() => usePagedRows(rows, 20));
    expect(result.current.pageCount).toBe(3);
    expect(result.current.pageRows).toEqual(rows.slice(0, 20));
    act(() => result.current.setPage(3));
    expect(result.current.pageRows).toEqual([41, 42, 43, 44, 45]);
    expect(result.current.firstRowNumber).toBe(41);
  });

  it('stays within range when the rows shrink, and has one page when empty', () => {
    const { result, rerender } = renderHook(({ list }) => usePagedRows(list, 20), {
      initialProps: { list: rows },
    });
    act(() => result.current.setPage(3));
    rerender({ list: rows.slice(0, 25) });
    expect(result.current.page).toBe(2);
    rerender({ list: [] });
    expect(result.current.page).toBe(1);
    expect(result.current.pageCount).toBe(1);
    expect(result.current.pageRows).toEqual([]);
  });
});
