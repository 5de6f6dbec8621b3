import type { BanListItemSort, SortOrder } from '@guardian/contract';

/** What one page of a list's items is asked for with (besides the page size). */
export interface BanListItemsPageQuery {
  search: string;
  page: number;
  sort: BanListItemSort;
  order: SortOrder;
}

/** Query keys of the ban list items: every cached page of every list starts with `all`. */
export const banListItemKeys = {
  all: ['ban-list-items'] as const,
  /** Every cached page of one list. */
  list: (listId: string) => [...banListItemKeys.all, listId] as const,
  page: (listId: string, query: BanListItemsPageQuery) => [...banListItemKeys.list(listId), query] as const,
  /** The exact number of a search's matches (under `list`, so every change of the list refreshes it). */
  count: (listId: string, search: string) => [...banListItemKeys.list(listId), 'count', search] as const,
  /** An item's history (under `list`: a change of the list refreshes it). */
  history: (listId: string, itemId: number) => [...banListItemKeys.list(listId), 'history', itemId] as const,
};
