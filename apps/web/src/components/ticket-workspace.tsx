import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import type { TicketThread } from '@guardian/contract';
import { ErrorMessage } from './ui/error-message';
import { LoadMore } from './ui/load-more';
import { QueryList } from './ui/query-list';
import { Spinner } from './ui/spinner';
import { useToast } from './ui/toast';
import { actionErrorMessage } from '../lib/api';
import type { TicketFilters, TicketSide } from '../api/tickets/keys';
import { useTicketsQuery } from '../api/tickets/tickets-query';
import { useTicketThreadQuery } from '../api/tickets/ticket-thread-query';
import { useCloseTicketMutation, useTicketReplyMutation } from '../api/tickets/ticket-mutations';
import { TicketRow, TicketThreadView } from './ticket-thread';

/** The search parameter naming the open ticket (`?ticket=12`), so an alert's link opens it. */
export const TICKET_PARAM = 'ticket';

/**
 * A side's tickets beside the open one's thread (stacked on a phone): Help and Support > Ticket for the
 * person, the Helpdesk for administrators.
 */
export function TicketWorkspace({
  side,
  filters,
  empty,
  threadActions,
}: {
  side: TicketSide;
  filters: TicketFilters;
  /** What the list says when it holds nothing. */
  empty: string;
  /** More controls of the open ticket (the Helpdesk's assign). */
  threadActions?: (thread: TicketThread) => ReactNode;
}) {
  const [params, setParams] = useSearchParams();
  const openId = Number(params.get(TICKET_PARAM)) || undefined;
  const tickets = useTicketsQuery(side, filters);
  const rows = tickets.data?.pages.flatMap((page) => page.tickets) ?? [];
  const openTicket = (id: number) =>
    setParams((old) => {
      const next = new URLSearchParams(old);
      next.set(TICKET_PARAM, String(id));
      return next;
    });

  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(16rem,22rem)_1fr] lg:items-start">
      <section aria-label="Tickets" className="min-w-0">
        <QueryList
          query={tickets}
          failed="Failed to fetch tickets."
          loading="Loading tickets..."
          rows={rows}
          empty={empty}
        >
          <ul className="divide-y divide-line overflow-hidden rounded-card border border-line bg-surface shadow-xs">
            {rows.map((ticket) => (
              <li key={ticket.id}>
                <TicketRow
                  ticket={ticket}
                  selected={ticket.id === openId}
                  showPerson={side === 'support'}
                  onOpen={() => openTicket(ticket.id)}
                />
              </li>
            ))}
          </ul>
        </QueryList>
        <LoadMore query={tickets} />
      </section>
      {openId ? (
        <OpenTicket key={openId} side={side} id={openId} actions={threadActions} />
      ) : (
        <p className="hidden rounded-card border border-dashed border-line-strong px-4 py-10 text-center text-sm text-ink-muted lg:block">
          Choose a ticket to read its thread.
        </p>
      )}
    </div>
  );
}

function OpenTicket({
  side,
  id,
  actions,
}: {
  side: TicketSide;
  id: number;
  actions?: (thread: TicketThread) => ReactNode;
}) {
  const toast = useToast();
  const thread = useTicketThreadQuery(side, id);
  const reply = useTicketReplyMutation(side);
  const close = useCloseTicketMutation(side);

  if (thread.isError)
    return (
      <ErrorMessage onRetry={() => void thread.refetch()}>
        {actionErrorMessage(thread.error, 'Failed to fetch the ticket.')}
      </ErrorMessage>
    );
  if (thread.isPending)
    return (
      <div className="flex justify-center py-12">
        <Spinner label="Loading the ticket..." />
      </div>
    );
  return (
    <TicketThreadView
      thread={thread.data}
      replying={reply.isPending}
      closing={close.isPending}
      actions={actions?.(thread.data)}
      onReply={(message) =>
        reply.mutateAsync({ id, message }).then(
          () => toast.success(side === 'person' ? 'Reply sent.' : 'Answer sent: the person is told.'),
          (error: unknown) => {
            toast.error(actionErrorMessage(error, 'Failed to send the reply.'));
            throw error;
          },
        )
      }
      onClose={() =>
        close.mutate(id, {
          onSuccess: () => toast.success('Ticket closed.'),
          onError: (error) => toast.error(actionErrorMessage(error, 'Failed to close the ticket.')),
        })
      }
    />
  );
}
