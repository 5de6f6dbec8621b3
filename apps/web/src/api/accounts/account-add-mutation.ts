import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddAccountRequest, CloudflareAccount } from '@guardian/contract';
import { api } from '../../lib/api';
import { accountKeys, accountsPath } from './keys';

export function addAccount(request: AddAccountRequest): Promise<CloudflareAccount> {
  return api.post<CloudflareAccount>(accountsPath, request);
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
