import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  helpdeskEndpoints,
  ticketEndpoints,
  type OpenTicketRequest,
  type TicketThread,
} from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { alertKeys } from '../alerts/keys';
import { ticketKeys, type TicketSide } from './keys';

/** A change answered with the ticket's thread: kept as its thread, its side's lists and alerts read again. */
function useTicketChange<V>(side: TicketSide, change: (variables: V) => Promise<TicketThread>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (thread) => {
      queryClient.setQueryData(ticketKeys.thread(side, thread.id), thread);
      void queryClient.invalidateQueries({ queryKey: [...ticketKeys.side(side), 'list'] });
      void queryClient.invalidateQueries({ queryKey: alertKeys.all });
    },
  });
}

/** The person opens a ticket. */
export function useOpenTicketMutation() {
  return useTicketChange('person', (request: OpenTicketRequest) =>
    callEndpoint(ticketEndpoints.open, { body: request }),
  );
}

/** Adds a message to a ticket: the person's, or support's answer. */
export function useTicketReplyMutation(side: TicketSide) {
  return useTicketChange(side, ({ id, message }: { id: number; message: string }) =>
    side === 'person'
      ? callEndpoint(ticketEndpoints.reply, { params: { id }, body: { message } })
      : callEndpoint(helpdeskEndpoints.reply, { params: { id }, body: { message } }),
  );
}

/** Closes a ticket, from either side. */
export function useCloseTicketMutation(side: TicketSide) {
  return useTicketChange(side, (id: number) =>
    side === 'person'
      ? callEndpoint(ticketEndpoints.close, { params: { id } })
      : callEndpoint(helpdeskEndpoints.close, { params: { id } }),
  );
}

/** Assigns a ticket to an administrator, or nobody (the Helpdesk). */
export function useAssignTicketMutation() {
  return useTicketChange('support', ({ id, assigneeId }: { id: number; assigneeId: number | null }) =>
    callEndpoint(helpdeskEndpoints.assign, { params: { id }, body: { assignee_id: assigneeId } }),
  );
}
