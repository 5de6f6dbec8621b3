import { useQuery } from '@tanstack/react-query';
import { helpdeskEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { ticketKeys } from './keys';

/** The administrators a ticket may be assigned to (the Helpdesk's assign menu). */
export function useTicketAssigneesQuery() {
  return useQuery({
    queryKey: ticketKeys.assignees(),
    queryFn: ({ signal }) => callEndpoint(helpdeskEndpoints.assignees, { signal }),
  });
}
