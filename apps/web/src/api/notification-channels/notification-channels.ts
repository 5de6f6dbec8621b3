import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { notificationChannelEndpoints, type ChannelRequest, type ChannelUpdate } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';

const channelKeys = { all: ['notification-channels'] as const };

/** System Setting's notification channels (administrators only); URLs masked. */
export function useNotificationChannelsQuery() {
  return useQuery({
    queryKey: channelKeys.all,
    queryFn: ({ signal }) => callEndpoint(notificationChannelEndpoints.list, { signal }),
  });
}

/** Adds a channel; a webhook's signing secret is in the answer, this once. */
export function useCreateChannelMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: ChannelRequest) =>
      callEndpoint(notificationChannelEndpoints.create, { body: request }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelKeys.all }),
  });
}

export function useUpdateChannelMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: ChannelUpdate }) =>
      callEndpoint(notificationChannelEndpoints.update, { params: { id }, body: changes }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelKeys.all }),
  });
}

export function useDeleteChannelMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callEndpoint(notificationChannelEndpoints.remove, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: channelKeys.all }),
  });
}

/** Sends a test message now: the receiver's answer, or an error saying what went wrong. */
export function useTestChannelMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callEndpoint(notificationChannelEndpoints.test, { params: { id } }),
    // Either way the channel's last delivery changed.
    onSettled: () => queryClient.invalidateQueries({ queryKey: channelKeys.all }),
  });
}
