import { queryOptions, useQuery } from '@tanstack/react-query';
import { accountEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { accountKeys } from './keys';

export function fetchAccounts(signal?: AbortSignal) {
  return callEndpoint(accountEndpoints.list, { signal });
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
