import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CloudflareAccount } from '@guardian/contract';
import { api } from '../../../lib/api';
import { zoneKeys } from './keys';

export function fetchAccounts(signal?: AbortSignal): Promise<CloudflareAccount[]> {
  return api.get<CloudflareAccount[]>('/cloudflare/accounts', { signal });
}

export const accountsQueryOptions = () =>
  queryOptions({ queryKey: zoneKeys.accounts(), queryFn: ({ signal }) => fetchAccounts(signal) });

/** Loaded when the Add Zone dialog opens, so a newly added account is offered at once. */
export function useAccountsQuery({ enabled }: { enabled: boolean }) {
  return useQuery({ ...accountsQueryOptions(), enabled, staleTime: 0 });
}
