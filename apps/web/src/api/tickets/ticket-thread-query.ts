import { useQuery, useQueryClient } from '@tanstack/react-query';
import { helpdeskEndpoints, ticketEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { alertKeys } from '../alerts/keys';
import { ticketKeys, type TicketSide } from './keys';

/** One ticket with its thread; the person's read resolves their "support answered" alert (read again). */
export function useTicketThreadQuery(side: TicketSide, id: number) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: ticketKeys.thread(side, id),
    queryFn: async ({ signal }) => {
      if (side === 'support') return callEndpoint(helpdeskEndpoints.get, { params: { id }, signal });
      const thread = await callEndpoint(ticketEndpoints.get, { params: { id }, signal });
      void queryClient.invalidateQueries({ queryKey: alertKeys.all });
      return thread;
    },
  });
}
