import type { BanListItemSort, SortOrder } from '@guardian/contract';

/** What one page of a list's items is asked for with (besides the page size). */
export interface BanListItemsPageQuery {
  search: string;
  page: number;
  sort: BanListItemSort;
  order: SortOrder;
}

/** Query keys of the items screen. */
export const banListItemKeys = {
  all: ['banlist-items'] as const,
  /** Every cached page of one list. */
  list: (listId: string) => [...banListItemKeys.all, listId] as const,
  page: (listId: string, query: BanListItemsPageQuery) => [...banListItemKeys.list(listId), query] as const,
  /**
   * GET /cloudflare/banlists under the ban lists screen's own key: the title comes from its cache, and
   * adding, deleting or syncing items refreshes its counts.
   */
  banLists: () => ['banlists', 'list'] as const,
};

export const banListItemsPath = (listId: string) =>
  `/cloudflare/banlists/${encodeURIComponent(listId)}/items`;
