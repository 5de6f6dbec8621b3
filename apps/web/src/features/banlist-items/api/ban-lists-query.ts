import { useQuery } from '@tanstack/react-query';
import type { BanList } from '@guardian/contract';
import { api } from '../../../lib/api';
import { banListItemKeys } from './keys';

export function fetchBanLists(signal?: AbortSignal): Promise<BanList[]> {
  return api.get<BanList[]>('/cloudflare/banlists', { signal });
}

/** The list whose items are shown (its name, account and kind), from the ban lists' cache when there. */
export function useBanListQuery(listId: string) {
  return useQuery({
    queryKey: banListItemKeys.banLists(),
    queryFn: ({ signal }) => fetchBanLists(signal),
    select: (banLists) => banLists.find((banList) => banList.list_id === listId),
  });
}
