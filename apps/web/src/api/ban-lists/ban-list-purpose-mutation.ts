import { useMutation, useQueryClient } from '@tanstack/react-query';
import { banListEndpoints, type BanList, type BanListPurpose } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { banListKeys } from './keys';

/** Says what a list is for (null: back to what its name suggests); Guardian only, nothing at Cloudflare. */
export function setBanListPurpose({
  banList,
  purpose,
}: {
  banList: BanList;
  purpose: BanListPurpose | null;
}) {
  return callEndpoint(banListEndpoints.setPurpose, { params: { id: banList.id }, body: { purpose } });
}

export function useSetBanListPurposeMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setBanListPurpose,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: banListKeys.list() }),
  });
}
