import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddBanListRequest, BanList } from '@guardian/contract';
import { api } from '../../lib/api';
import { banListKeys, banListsPath } from './keys';

export function addBanList(request: AddBanListRequest): Promise<BanList> {
  return api.post<BanList>(banListsPath, request);
}

export function useAddBanListMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addBanList,
    // Spec section 7: the answer is the new list; it joins the table without another fetch.
    onSuccess: (banList) =>
      queryClient.setQueryData<BanList[]>(banListKeys.list(), (banLists) =>
        banLists ? [...banLists, banList] : banLists,
      ),
  });
}
