import { useMutation, useQueryClient } from '@tanstack/react-query';
import { crowdsecEndpoints, type CrowdsecPullResult, type CrowdsecSourceRequest } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { untilEnded } from '../jobs/follow-job';
import { serverKeys } from './keys';

/** Connects a CrowdSec server to its Local API with a bouncer key (kept encrypted, never shown again). */
export function useConnectCrowdsecMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ serverId, request }: { serverId: number; request: CrowdsecSourceRequest }) =>
      callEndpoint(crowdsecEndpoints.connect, { params: { server_id: serverId }, body: request }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: serverKeys.crowdsec() }),
  });
}

/** Pulls the Local API's decisions now; a long pull's job is followed until it ends. */
export function usePullCrowdsecMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (serverId: number): Promise<CrowdsecPullResult> =>
      untilEnded(
        await callEndpoint(crowdsecEndpoints.pull, { params: { server_id: serverId } }),
        queryClient,
      ),
    // A failed pull is recorded on the source too: both re-fetched.
    onSettled: () => queryClient.invalidateQueries({ queryKey: serverKeys.all }),
  });
}

/** Stops pulling a server's Local API and forgets its bouncer key. */
export function useDisconnectCrowdsecMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (serverId: number) =>
      callEndpoint(crowdsecEndpoints.disconnect, { params: { server_id: serverId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: serverKeys.crowdsec() }),
  });
}
