import type { Ticket, TicketMessage, TicketPerson } from '@guardian/contract';

/** A ticket as an alert names it. */
interface TicketRef {
  id: number;
  subject: string;
}

/** The console's side of telling (modules/alerts' AlertCauses, handed over by services.ts). */
export interface TicketAlerts {
  ticketReplied(userId: number, ticket: TicketRef): Promise<void>;
  ticketRead(userId: number, ticketId: number): Promise<void>;
  ticketWaiting(adminIds: readonly number[], ticket: TicketRef, from: string): Promise<void>;
  ticketAnswered(adminIds: readonly number[], ticketId: number): Promise<void>;
}

/**
 * Who is told of a ticket, and where. Today the console: the person's alert "Support answered your
 * ticket" (until they read it) and the administrators' "A ticket waits for support" (the assignee's, or
 * every administrator's while nobody took it; resolved when support answers or closes it).
 *
 * E-mail (issue 38): each new alert these raise is e-mailed by modules/notifications, by the
 * recipient's preferences: `ticketReplied` e-mails the person, `ticketWaiting` the administrators it
 * tells (the same delivery and batching as every alert's). A notice never fails the
 * change it tells of (AlertCauses logs its own failures).
 */
export class TicketNotices {
  constructor(
    private readonly alerts: TicketAlerts,
    private readonly administrators: () => Promise<TicketPerson[]>,
  ) {}

  /** Who is told that a ticket waits: its assignee, else every administrator. */
  private async waitingFor(ticket: Ticket): Promise<number[]> {
    if (ticket.assignee) return [ticket.assignee.id];
    return (await this.administrators()).map((admin) => admin.id);
  }

  private async everyAdministrator(): Promise<number[]> {
    return (await this.administrators()).map((admin) => admin.id);
  }

  /** A ticket was opened, or its person wrote again: it waits for support. */
  async ticketWaiting(ticket: Ticket, _message: TicketMessage): Promise<void> {
    await this.alerts.ticketWaiting(await this.waitingFor(ticket), ticket, ticket.person.email);
  }

  /** Support answered: the person is told; no administrator is waited for any more. */
  async ticketReplied(ticket: Ticket, _message: TicketMessage): Promise<void> {
    await this.alerts.ticketReplied(ticket.person.id, ticket);
    await this.alerts.ticketAnswered(await this.everyAdministrator(), ticket.id);
  }

  /** The ticket was closed (by either side): nothing waits on it. */
  async ticketClosed(ticket: Ticket): Promise<void> {
    await this.alerts.ticketAnswered(await this.everyAdministrator(), ticket.id);
    await this.alerts.ticketRead(ticket.person.id, ticket.id);
  }

  /** The person read their ticket: its reply alert resolves. */
  ticketRead(ticket: Ticket): Promise<void> {
    return this.alerts.ticketRead(ticket.person.id, ticket.id);
  }

  /** The ticket changed hands: a waiting ticket is now the new assignee's to answer. */
  async ticketAssigned(ticket: Ticket): Promise<void> {
    if (ticket.state !== 'open') return;
    const waitingFor = await this.waitingFor(ticket);
    const others = (await this.everyAdministrator()).filter((id) => !waitingFor.includes(id));
    await this.alerts.ticketAnswered(others, ticket.id);
    await this.alerts.ticketWaiting(waitingFor, ticket, ticket.person.email);
  }
}
