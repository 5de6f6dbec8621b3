import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountEndpoints, type AddAccountRequest, type CloudflareAccount } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { accountKeys } from './keys';

export function addAccount(request: AddAccountRequest) {
  return callEndpoint(accountEndpoints.add, { body: request });
}

export function useAddAccountMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addAccount,
    // Spec section 7: the answer is the new account, appended to the list without another fetch.
    onSuccess: (account) =>
      queryClient.setQueryData<CloudflareAccount[]>(accountKeys.list(), (accounts) =>
        accounts ? [...accounts, account] : accounts,
      ),
  });
}
