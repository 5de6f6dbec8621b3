import {
  helpdeskQuerySchema,
  TICKET_MESSAGES_MAX,
  TICKETS_OPEN_PER_PERSON_MAX,
  ticketsQuerySchema,
  type HelpdeskQuery,
  type OpenTicketRequest,
  type TicketAssignees,
  type TicketsPage,
  type TicketsQuery,
  type TicketThread,
} from '@guardian/contract';
import { AppError } from '../../app-error';
import type { Db } from '../../db';
import type { TicketNotices } from './ticket-notices';
import { TicketsRepository, type AddMessageOutcome, type TicketAuthor } from './tickets.repository';

/** Who calls: the person (their own tickets) or an administrator (the Helpdesk). */
export interface Caller {
  id: number;
  email: string;
}

const ticketNotFound = () => new AppError('NOT_FOUND', 'Ticket not found.');

/**
 * Support tickets: a person's own (another person's is "not found", administrators' own routes
 * included), and the Helpdesk where administrators answer everyone's. Each change tells the other
 * side through TicketNotices.
 */
export class TicketsService {
  private readonly tickets: TicketsRepository;

  constructor(
    db: Db,
    private readonly notices: TicketNotices,
  ) {
    this.tickets = new TicketsRepository(db);
  }

  async list(caller: Caller, query: TicketsQuery): Promise<TicketsPage> {
    const filter = ticketsQuerySchema.parse(query);
    const { tickets, nextCursor } = await this.tickets.page({ ...filter, userId: caller.id });
    return { tickets, next_cursor: nextCursor };
  }

  async open(caller: Caller, request: OpenTicketRequest): Promise<TicketThread> {
    if ((await this.tickets.liveCount(caller.id)) >= TICKETS_OPEN_PER_PERSON_MAX) {
      throw new AppError(
        'CONFLICT',
        `You have ${TICKETS_OPEN_PER_PERSON_MAX} tickets that are not closed: close one before opening another.`,
      );
    }
    const ticket = await this.tickets.open(this.author(caller, false), {
      subject: request.subject,
      category: request.category,
      message: request.message,
    });
    const thread = (await this.tickets.thread(ticket.id))!;
    await this.notices.ticketWaiting(ticket, thread.messages[0]!);
    return thread;
  }

  /** The person's ticket with its thread; reading it resolves its "support answered" alert. */
  async get(caller: Caller, id: number): Promise<TicketThread> {
    const thread = await this.tickets.thread(id, caller.id);
    if (!thread) throw ticketNotFound();
    await this.notices.ticketRead(thread);
    return thread;
  }

  async reply(caller: Caller, id: number, message: string): Promise<TicketThread> {
    const outcome = await this.tickets.addMessage(id, this.author(caller, false), message, caller.id);
    const thread = await this.added(outcome, id);
    await this.notices.ticketWaiting(thread, thread.messages.at(-1)!);
    return thread;
  }

  async close(caller: Caller, id: number): Promise<TicketThread> {
    const ticket = await this.tickets.close(id, caller.id);
    if (!ticket) throw ticketNotFound();
    await this.notices.ticketClosed(ticket);
    return (await this.tickets.thread(id))!;
  }

  // The Helpdesk (administrators only: the route's access).

  async queue(caller: Caller, query: HelpdeskQuery): Promise<TicketsPage> {
    const { assignee, ...filter } = helpdeskQuerySchema.parse(query);
    const { tickets, nextCursor } = await this.tickets.page({
      ...filter,
      assignee: assignee === 'me' ? caller.id : assignee,
    });
    return { tickets, next_cursor: nextCursor };
  }

  async assignees(): Promise<TicketAssignees> {
    return { assignees: await this.tickets.administrators() };
  }

  async read(id: number): Promise<TicketThread> {
    const thread = await this.tickets.thread(id);
    if (!thread) throw ticketNotFound();
    return thread;
  }

  async answer(caller: Caller, id: number, message: string): Promise<TicketThread> {
    const outcome = await this.tickets.addMessage(id, this.author(caller, true), message);
    const thread = await this.added(outcome, id);
    await this.notices.ticketReplied(thread, thread.messages.at(-1)!);
    return thread;
  }

  async assign(id: number, { assignee_id }: { assignee_id: number | null }): Promise<TicketThread> {
    if (assignee_id !== null) {
      const administrators = await this.tickets.administrators();
      if (!administrators.some((admin) => admin.id === assignee_id)) {
        const message = 'A ticket can be assigned only to an active administrator.';
        throw new AppError('BAD_REQUEST', message, { errors: [{ message, field: 'assignee_id' }] });
      }
    }
    const ticket = await this.tickets.assign(id, assignee_id);
    if (!ticket) throw ticketNotFound();
    await this.notices.ticketAssigned(ticket);
    return (await this.tickets.thread(id))!;
  }

  async closeAsSupport(id: number): Promise<TicketThread> {
    const ticket = await this.tickets.close(id);
    if (!ticket) throw ticketNotFound();
    await this.notices.ticketClosed(ticket);
    return (await this.tickets.thread(id))!;
  }

  private author(caller: Caller, fromSupport: boolean): TicketAuthor {
    return { id: caller.id, email: caller.email, fromSupport };
  }

  /** The thread after a message was added, or why it was not. */
  private async added(outcome: AddMessageOutcome, id: number): Promise<TicketThread> {
    if (!outcome.added) {
      if (outcome.reason === 'missing') throw ticketNotFound();
      throw new AppError(
        'CONFLICT',
        outcome.reason === 'closed'
          ? 'This ticket is closed: it takes no more messages. Open a new ticket.'
          : `This ticket holds ${TICKET_MESSAGES_MAX} messages, its most: open a new ticket.`,
      );
    }
    return (await this.tickets.thread(id))!;
  }
}
