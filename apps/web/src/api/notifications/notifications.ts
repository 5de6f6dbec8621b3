import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { notificationEndpoints, type NotificationPreferencesUpdate } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';

const notificationKeys = { all: ['notifications'] as const };

/** Where each kind of the person's alerts goes, and whether e-mail is set up. */
export function useNotificationPreferencesQuery() {
  return useQuery({
    queryKey: notificationKeys.all,
    queryFn: ({ signal }) => callEndpoint(notificationEndpoints.get, { signal }),
  });
}

/** Saves the person's choices; the answer is all of them as they apply now. */
export function useSaveNotificationPreferencesMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: NotificationPreferencesUpdate) =>
      callEndpoint(notificationEndpoints.update, { body: changes }),
    onSuccess: (answer) => queryClient.setQueryData(notificationKeys.all, answer),
  });
}
