import { useState } from 'react';
import { ITEM_SEARCH_DEBOUNCE_MS } from '@guardian/contract';
import { useDebouncedValue } from './use-debounced-value';

/** What the search reads of the query of one page (a TanStack query result). */
interface PageAnswer {
  isSuccess: boolean;
  isPlaceholderData: boolean;
}

interface PagedSearchOptions {
  /** Clearing the search goes back to the page the person was on before it (the zones), not to page 1. */
  restorePageOnClear?: boolean;
}

/**
 * A search box over pages the server searches and cuts (zones, users, a list's items): the text as
 * typed, the search asked for once the typing stops (one request, not one per key), and the page.
 * Spec section 9: a new search starts at page 1 once the debounce settles; so does clearing it, unless
 * `restorePageOnClear`. (`usePagedRows` is the same for rows the browser pages.)
 *
 *   const search = usePagedSearch();
 *   const users = useUsersQuery({ search: search.debounced, page: search.page });
 *   search.keepPageWithin(users, pageCountOf(users.data?.totalItems ?? 0, USERS_PAGE_SIZE));
 */
export function usePagedSearch({ restorePageOnClear = false }: PagedSearchOptions = {}) {
  const [text, setText] = useState('');
  const debounced = useDebouncedValue(text.trim(), ITEM_SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);

  // The search the page belongs to, and the page the person was on before searching (zones).
  const [searchOfPage, setSearchOfPage] = useState(debounced);
  const [pageBeforeSearch, setPageBeforeSearch] = useState(1);
  if (searchOfPage !== debounced) {
    setSearchOfPage(debounced);
    if (searchOfPage === '') setPageBeforeSearch(page);
    setPage(restorePageOnClear && debounced === '' ? pageBeforeSearch : 1);
  }

  return {
    /** The box's text, as the person types it. */
    text,
    setText,
    /** The search to ask the server for: the trimmed text, once it has stopped changing. */
    debounced,
    searching: debounced !== '',
    page,
    setPage,
    /** The rows shown are not the ones asked for yet: another page or search is on its way, or typed ahead. */
    isFetching: (answer: PageAnswer) => answer.isPlaceholderData || text.trim() !== debounced,
    /**
     * Called while rendering: a delete or a sync left fewer pages than the one shown, so show the new
     * last page rather than an empty one (once the page asked for has arrived).
     */
    keepPageWithin: (answer: PageAnswer, pageCount: number) => {
      if (answer.isSuccess && !answer.isPlaceholderData && page > pageCount) setPage(pageCount);
    },
  };
}
