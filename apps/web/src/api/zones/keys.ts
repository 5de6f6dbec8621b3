import type { SortOrder, ZoneSort } from '@guardian/contract';

/** What one page of the zones screen is asked for with (besides the page size). */
export interface ZonesPageRequest {
  search: string;
  page: number;
  sort: ZoneSort;
  order: SortOrder;
}

/**
 * Query keys of the zones (the server's mirror of every account's zones): the whole list and the
 * screen's pages both start with `all`, which every zone write invalidates.
 */
export const zoneKeys = {
  all: ['zones'] as const,
  list: () => [...zoneKeys.all, 'list'] as const,
  page: (request: ZonesPageRequest) => [...zoneKeys.all, 'page', request] as const,
};
