import { useInfiniteQuery } from '@tanstack/react-query';
import { helpdeskEndpoints, ticketEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { ticketKeys, type TicketFilters, type TicketSide } from './keys';

/** Tickets per page, on both sides. */
export const TICKETS_PAGE_SIZE = 25;

/** A side's tickets, most recently active first, a page at a time (Load more asks for the next). */
export function useTicketsQuery(side: TicketSide, filters: TicketFilters) {
  return useInfiniteQuery({
    queryKey: ticketKeys.list(side, filters),
    queryFn: ({ pageParam, signal }) => {
      const page = { state: filters.state || undefined, limit: TICKETS_PAGE_SIZE, before: pageParam };
      return side === 'person'
        ? callEndpoint(ticketEndpoints.list, { query: page, signal })
        : callEndpoint(helpdeskEndpoints.list, {
            query: {
              ...page,
              category: filters.category || undefined,
              person: filters.person.trim() || undefined,
              assignee: filters.assignee || undefined,
            },
            signal,
          });
    },
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}
