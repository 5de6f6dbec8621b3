import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountEndpoints, type AddAccountRequest, type CloudflareAccount } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { banListKeys } from '../ban-lists/keys';
import { jobKeys } from '../jobs/keys';
import { accountKeys } from './keys';

export function addAccount(request: AddAccountRequest) {
  return callEndpoint(accountEndpoints.add, { body: request });
}

export function useAddAccountMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addAccount,
    onSuccess: (account) => {
      // Spec section 7: the answer is the new account, appended to the list without another fetch.
      queryClient.setQueryData<CloudflareAccount[]>(accountKeys.list(), (accounts) =>
        accounts ? [...accounts, account] : accounts,
      );
      // The server recorded the account's lists and queued a sync job per list.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: banListKeys.list() }),
        queryClient.invalidateQueries({ queryKey: jobKeys.lists() }),
      ]);
    },
  });
}
