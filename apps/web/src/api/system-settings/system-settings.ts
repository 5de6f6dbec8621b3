import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { systemSettingEndpoints, type SystemSettingsUpdate } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';

const systemSettingKeys = { all: ['system-settings'] as const };

/** System Setting as it applies now (administrators only). */
export function useSystemSettingsQuery() {
  return useQuery({
    queryKey: systemSettingKeys.all,
    queryFn: ({ signal }) => callEndpoint(systemSettingEndpoints.get, { signal }),
  });
}

/** Saves the changed settings; the answer is the settings as they apply now. */
export function useSaveSystemSettingsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: SystemSettingsUpdate) =>
      callEndpoint(systemSettingEndpoints.update, { body: changes }),
    onSuccess: (settings) => queryClient.setQueryData(systemSettingKeys.all, settings),
  });
}

/** Sends a test e-mail through the saved SMTP settings (to the administrator when `to` is empty). */
export function useTestEmailMutation() {
  return useMutation({
    mutationFn: (to: string) =>
      callEndpoint(systemSettingEndpoints.testEmail, { body: to.trim() ? { to: to.trim() } : {} }),
  });
}
