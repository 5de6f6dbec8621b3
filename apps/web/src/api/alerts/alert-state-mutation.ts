import { useMutation, useQueryClient } from '@tanstack/react-query';
import { alertEndpoints, type Alert } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { alertKeys } from './keys';

/** What a person does with an alert: acknowledge it (they know) or resolve it (closed). */
export type AlertAction = 'acknowledge' | 'resolve';

export function changeAlert(id: number, action: AlertAction) {
  return action === 'acknowledge'
    ? callEndpoint(alertEndpoints.acknowledge, { params: { id } })
    : callEndpoint(alertEndpoints.resolve, { params: { id } });
}

/** Acknowledges or resolves an alert; the lists and the open count are read again. */
export function useAlertStateMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ alert, action }: { alert: Pick<Alert, 'id'>; action: AlertAction }) =>
      changeAlert(alert.id, action),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertKeys.all }),
  });
}
