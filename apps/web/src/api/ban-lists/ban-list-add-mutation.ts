import { useMutation, useQueryClient } from '@tanstack/react-query';
import { banListEndpoints, type AddBanListRequest, type BanList } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { listCapacityKeys } from '../ip-search/list-capacity-query';
import { banListKeys } from './keys';

export function addBanList(request: AddBanListRequest) {
  return callEndpoint(banListEndpoints.add, { body: request });
}

export function useAddBanListMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addBanList,
    // Spec section 7: the answer is the new list; it joins the table without another fetch. The
    // capacity (under the lists' key) counts one list more: it is read again.
    onSuccess: (banList) => {
      queryClient.setQueryData<BanList[]>(banListKeys.list(), (banLists) =>
        banLists ? [...banLists, banList] : banLists,
      );
      return queryClient.invalidateQueries({ queryKey: listCapacityKeys.all });
    },
  });
}
