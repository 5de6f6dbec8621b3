import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountEndpoints, type CloudflareAccount, type UpdateAccountRequest } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { banListKeys } from '../ban-lists/keys';
import { zoneKeys } from '../zones/keys';
import { accountKeys } from './keys';

export function updateAccount({ id, request }: { id: number; request: UpdateAccountRequest }) {
  return callEndpoint(accountEndpoints.update, { params: { id }, body: request });
}

export function useUpdateAccountMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAccount,
    onSuccess: (updated) => {
      queryClient.setQueryData<CloudflareAccount[]>(accountKeys.list(), (accounts) =>
        accounts?.map((account) => (account.id === updated.id ? updated : account)),
      );
      // Lists and zones show their account's name.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: banListKeys.list() }),
        queryClient.invalidateQueries({ queryKey: zoneKeys.all }),
      ]);
    },
  });
}
