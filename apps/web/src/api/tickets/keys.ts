import type { TicketCategory, TicketState } from '@guardian/contract';

/** Whose view of tickets: the person's own (Help and Support > Ticket) or the Helpdesk's (administrators). */
export type TicketSide = 'person' | 'support';

/** What the Helpdesk's queue filters by (empty strings mean no filter); the person's list uses `state`. */
export interface TicketFilters {
  state: TicketState | '';
  category: TicketCategory | '';
  person: string;
  assignee: 'me' | 'none' | '';
}

/** Query keys of tickets: each side's lists and threads, and the administrators to assign. */
export const ticketKeys = {
  all: ['tickets'] as const,
  side: (side: TicketSide) => [...ticketKeys.all, side] as const,
  list: (side: TicketSide, filters: TicketFilters) => [...ticketKeys.side(side), 'list', filters] as const,
  thread: (side: TicketSide, id: number) => [...ticketKeys.side(side), 'thread', id] as const,
  assignees: () => [...ticketKeys.all, 'assignees'] as const,
};
