import { useMutation, useQueryClient } from '@tanstack/react-query';
import { serverEndpoints, type ServerGroupRequest } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { serverKeys } from './keys';

/** Creates a group (no id) or changes one's policy. */
export function useSaveServerGroupMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, request }: { id?: number; request: ServerGroupRequest }) =>
      id === undefined
        ? callEndpoint(serverEndpoints.groupCreate, { body: request })
        : callEndpoint(serverEndpoints.groupUpdate, { params: { group_id: id }, body: request }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: serverKeys.all }),
  });
}
