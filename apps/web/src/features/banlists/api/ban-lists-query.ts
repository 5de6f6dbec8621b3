import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BanList } from '@guardian/contract';
import { api } from '../../../lib/api';
import { banListKeys } from './keys';

export function fetchBanLists(signal?: AbortSignal): Promise<BanList[]> {
  return api.get<BanList[]>('/cloudflare/banlists', { signal });
}

export const banListsQueryOptions = () =>
  queryOptions({ queryKey: banListKeys.list(), queryFn: ({ signal }) => fetchBanLists(signal) });

export function useBanListsQuery() {
  return useQuery(banListsQueryOptions());
}
