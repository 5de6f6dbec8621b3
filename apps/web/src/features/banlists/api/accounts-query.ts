import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CloudflareAccount } from '@guardian/contract';
import { api } from '../../../lib/api';
import { banListKeys } from './keys';

export function fetchAccounts(signal?: AbortSignal): Promise<CloudflareAccount[]> {
  return api.get<CloudflareAccount[]>('/cloudflare/accounts', { signal });
}

export const accountsQueryOptions = () =>
  queryOptions({ queryKey: banListKeys.accounts(), queryFn: ({ signal }) => fetchAccounts(signal) });

/** Loaded when the Add dialog opens, so a newly added account is offered at once. */
export function useAccountsQuery() {
  return useQuery({ ...accountsQueryOptions(), staleTime: 0 });
}
