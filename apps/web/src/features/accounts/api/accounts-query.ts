import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CloudflareAccount } from '@guardian/contract';
import { api } from '../../../lib/api';
import { accountKeys } from './keys';

export function fetchAccounts(signal?: AbortSignal): Promise<CloudflareAccount[]> {
  return api.get<CloudflareAccount[]>('/cloudflare/accounts', { signal });
}

export const accountsQueryOptions = () =>
  queryOptions({ queryKey: accountKeys.list(), queryFn: ({ signal }) => fetchAccounts(signal) });

export function useAccountsQuery() {
  return useQuery(accountsQueryOptions());
}
