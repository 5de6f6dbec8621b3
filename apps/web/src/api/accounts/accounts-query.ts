import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CloudflareAccount } from '@guardian/contract';
import { api } from '../../lib/api';
import { accountKeys, accountsPath } from './keys';

export function fetchAccounts(signal?: AbortSignal): Promise<CloudflareAccount[]> {
  return api.get<CloudflareAccount[]>(accountsPath, { signal });
}

export const accountsQueryOptions = () =>
  queryOptions({ queryKey: accountKeys.list(), queryFn: ({ signal }) => fetchAccounts(signal) });

/**
 * The accounts screen's list, and the accounts the Add Ban List and Add Zone dialogs offer: those mount
 * only while open and the data is stale at once, so each opening re-fetches and offers a new account.
 */
export function useAccountsQuery() {
  return useQuery(accountsQueryOptions());
}
