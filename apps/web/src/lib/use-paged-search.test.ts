import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ITEM_SEARCH_DEBOUNCE_MS } from '@guardian/contract';
import { usePagedSearch } from './use-paged-search';

const ARRIVED = { isSuccess: true, isPlaceholderData: false };
const ON_ITS_WAY = { isSuccess: true, isPlaceholderData: true };

type Search = ReturnType<typeof usePagedSearch>;

/** Types into the box and waits for the debounce to settle. */
function searchFor(result: { current: Search }, text: string) {
  act(() => result.current.setText(text));
  act(() => vi.advanceTimersByTime(ITEM_SEARCH_DEBOUNCE_MS));
}

describe('usePagedSearch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks for the trimmed text once the typing stops, fetching meanwhile, from page 1', () => {
    const { result } = renderHook(() => usePagedSearch());
    act(() => result.current.setPage(4));
    act(() => result.current.setText(' exa'));
    expect(result.current.debounced).toBe('');
    expect(result.current.isFetching(ARRIVED)).toBe(true);
    expect(result.current.page).toBe(4);
    act(() => vi.advanceTimersByTime(ITEM_SEARCH_DEBOUNCE_MS));
    expect(result.current.debounced).toBe('exa');
    expect(result.current.searching).toBe(true);
    expect(result.current.page).toBe(1);
    expect(result.current.isFetching(ARRIVED)).toBe(false);
    expect(result.current.isFetching(ON_ITS_WAY)).toBe(true);
  });

  it('goes to page 1 when the search is cleared (users, items)', () => {
    const { result } = renderHook(() => usePagedSearch());
    act(() => result.current.setPage(3));
    searchFor(result, 'exa');
    act(() => result.current.setPage(2));
    searchFor(result, '');
    expect(result.current.searching).toBe(false);
    expect(result.current.page).toBe(1);
  });

  it('restores the page of before the search when it is cleared (zones, spec section 9)', () => {
    const { result } = renderHook(() => usePagedSearch({ restorePageOnClear: true }));
    act(() => result.current.setPage(3));
    searchFor(result, 'exa');
    expect(result.current.page).toBe(1);
    // Another search, and another page of it, keep the page the person came from.
    searchFor(result, 'example');
    act(() => result.current.setPage(2));
    searchFor(result, '   ');
    expect(result.current.page).toBe(3);
  });

  it('keeps the page within the page count once a page has arrived', () => {
    const { result } = renderHook(() => usePagedSearch());
    act(() => result.current.setPage(5));
    act(() => result.current.keepPageWithin(ON_ITS_WAY, 3));
    expect(result.current.page).toBe(5);
    act(() => result.current.keepPageWithin({ isSuccess: false, isPlaceholderData: false }, 3));
    expect(result.current.page).toBe(5);
    act(() => result.current.keepPageWithin(ARRIVED, 3));
    expect(result.current.page).toBe(3);
  });
});
