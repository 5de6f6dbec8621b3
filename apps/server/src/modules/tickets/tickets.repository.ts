import {
  TICKET_ASSIGNEES_MAX,
  TICKET_MESSAGES_MAX,
  type Ticket,
  type TicketCategory,
  type TicketMessage,
  type TicketPerson,
  type TicketState,
  type TicketThread,
} from '@guardian/contract';
import { likeLiteral, type Db, type Queryable } from '../../db';

/** What a page of tickets is filtered by: a person's own (`userId`), or the Helpdesk's filters. */
export interface TicketFilter {
  userId?: number;
  state?: TicketState;
  category?: TicketCategory;
  /** Part of the e-mail of the ticket's person. */
  person?: string;
  /** An administrator's id, or `none` for unassigned. */
  assignee?: number | 'none';
  before?: number;
  limit: number;
}

/** Who writes a message. */
export interface TicketAuthor {
  id: number;
  email: string;
  fromSupport: boolean;
}

/** Why a message was not added: the ticket is gone (or not the caller's), closed or full. */
export type AddMessageOutcome =
  { added: true; ticket: Ticket } | { added: false; reason: 'missing' | 'closed' | 'full' };

interface TicketRow {
  id: number | string;
  subject: string;
  category: TicketCategory;
  state: TicketState;
  user_id: number | string;
  person_email: string;
  assignee_id: number | string | null;
  assignee_email: string | null;
  message_count: number;
  created_at: Date;
  updated_at: Date;
  closed_at: Date | null;
  seq: number | string;
}

interface MessageRow {
  id: number | string;
  from_support: boolean;
  author_email: string;
  body: string;
  created_at: Date;
}

const SELECT_TICKETS = `SELECT t.id, t.subject, t.category, t.state, t.user_id, p.email AS person_email,
    t.assignee_id, a.email AS assignee_email, t.message_count, t.created_at, t.updated_at, t.closed_at, t.seq
  FROM tickets t JOIN users p ON p.id = t.user_id LEFT JOIN users a ON a.id = t.assignee_id`;

function toTicket(row: TicketRow): Ticket {
  return {
    id: Number(row.id),
    subject: row.subject,
    category: row.category,
    state: row.state,
    person: { id: Number(row.user_id), email: row.person_email },
    assignee:
      row.assignee_id === null ? null : { id: Number(row.assignee_id), email: row.assignee_email ?? '' },
    message_count: row.message_count,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    closed_at: row.closed_at?.toISOString() ?? null,
  };
}

function toMessage(row: MessageRow): TicketMessage {
  return {
    id: Number(row.id),
    from: row.from_support ? 'support' : 'person',
    author_email: row.author_email,
    body: row.body,
    created_at: row.created_at.toISOString(),
  };
}

/** The only SQL of tickets (migration 046). */
export class TicketsRepository {
  constructor(private readonly db: Db) {}

  /** How many of the person's tickets are not closed. */
  async liveCount(userId: number): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM tickets WHERE user_id = $1 AND state <> 'closed'`,
      [userId],
    );
    return row?.n ?? 0;
  }

  /** Opens a ticket with its first message, in one transaction. */
  async open(
    author: TicketAuthor,
    ticket: { subject: string; category: TicketCategory; message: string },
  ): Promise<Ticket> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query<{ id: number | string }>(
        `INSERT INTO tickets (user_id, subject, category, message_count) VALUES ($1, $2, $3, 1) RETURNING id`,
        [author.id, ticket.subject, ticket.category],
      );
      const id = Number(row!.id);
      await insertMessage(tx, id, author, ticket.message);
      return (await findTicket(tx, id))!;
    });
  }

  /** A page, most recently active first, after the cursor `before`. */
  async page(filter: TicketFilter): Promise<{ tickets: Ticket[]; nextCursor: number | null }> {
    const where: string[] = [];
    const values: unknown[] = [];
    const add = (sql: (param: string) => string, value: unknown) => {
      values.push(value);
      where.push(sql(`$${values.length}`));
    };
    if (filter.userId !== undefined) add((p) => `t.user_id = ${p}`, filter.userId);
    if (filter.state) add((p) => `t.state = ${p}`, filter.state);
    if (filter.category) add((p) => `t.category = ${p}`, filter.category);
    if (filter.person) add((p) => `p.email ILIKE ${p}`, `%${likeLiteral(filter.person)}%`);
    if (filter.assignee === 'none') where.push('t.assignee_id IS NULL');
    else if (filter.assignee !== undefined) add((p) => `t.assignee_id = ${p}`, filter.assignee);
    if (filter.before !== undefined) add((p) => `t.seq < ${p}`, filter.before);
    values.push(filter.limit + 1);
    const rows = await this.db.query<TicketRow>(
      `${SELECT_TICKETS} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY t.seq DESC LIMIT $${values.length}`,
      values,
    );
    const more = rows.length > filter.limit;
    const kept = more ? rows.slice(0, filter.limit) : rows;
    return { tickets: kept.map(toTicket), nextCursor: more ? Number(kept.at(-1)!.seq) : null };
  }

  /** A ticket with its thread: the person's own when `userId` is given, else anyone's. */
  async thread(id: number, userId?: number): Promise<TicketThread | undefined> {
    const ticket = await findTicket(this.db, id);
    if (!ticket || (userId !== undefined && ticket.person.id !== userId)) return undefined;
    const messages = await this.db.query<MessageRow>(
      `SELECT id, from_support, author_email, body, created_at FROM ticket_messages
        WHERE ticket_id = $1 ORDER BY id LIMIT ${TICKET_MESSAGES_MAX}`,
      [id],
    );
    return { ...ticket, messages: messages.map(toMessage) };
  }

  /**
   * Adds a message unless the ticket is closed or full: support's makes it `answered`, its person's
   * `open`. `ownerId` keeps a person to their own ticket.
   */
  async addMessage(
    id: number,
    author: TicketAuthor,
    body: string,
    ownerId?: number,
  ): Promise<AddMessageOutcome> {
    return this.db.transaction(async (tx) => {
      const [updated] = await tx.query<{ id: number | string }>(
        `UPDATE tickets SET message_count = message_count + 1, state = $2, updated_at = now(),
           seq = nextval('tickets_seq')
          WHERE id = $1 AND state <> 'closed' AND message_count < ${TICKET_MESSAGES_MAX}
            AND ($3::bigint IS NULL OR user_id = $3)
          RETURNING id`,
        [id, author.fromSupport ? 'answered' : 'open', ownerId ?? null],
      );
      if (!updated) {
        const ticket = await findTicket(tx, id);
        if (!ticket || (ownerId !== undefined && ticket.person.id !== ownerId))
          return { added: false, reason: 'missing' };
        return { added: false, reason: ticket.state === 'closed' ? 'closed' : 'full' };
      }
      await insertMessage(tx, id, author, body);
      return { added: true, ticket: (await findTicket(tx, id))! };
    });
  }

  /** Closes the ticket (a closed one stays as it is); undefined when it is missing or not `ownerId`'s. */
  async close(id: number, ownerId?: number): Promise<Ticket | undefined> {
    await this.db.query(
      `UPDATE tickets SET state = 'closed', closed_at = now(), updated_at = now(), seq = nextval('tickets_seq')
        WHERE id = $1 AND state <> 'closed' AND ($2::bigint IS NULL OR user_id = $2)`,
      [id, ownerId ?? null],
    );
    const ticket = await findTicket(this.db, id);
    return ticket && (ownerId === undefined || ticket.person.id === ownerId) ? ticket : undefined;
  }

  /** Assigns the ticket to an administrator (or nobody); undefined when it is missing. */
  async assign(id: number, assigneeId: number | null): Promise<Ticket | undefined> {
    await this.db.query(
      `UPDATE tickets SET assignee_id = $2, seq = nextval('tickets_seq')
        WHERE id = $1 AND assignee_id IS DISTINCT FROM $2`,
      [id, assigneeId],
    );
    return findTicket(this.db, id);
  }

  /** The active administrators, by e-mail, at most TICKET_ASSIGNEES_MAX. */
  administrators(): Promise<TicketPerson[]> {
    return this.db
      .query<{ id: number | string; email: string }>(
        `SELECT id, email FROM users WHERE level = 0 AND NOT disabled ORDER BY lower(email) LIMIT ${TICKET_ASSIGNEES_MAX}`,
      )
      .then((rows) => rows.map((row) => ({ id: Number(row.id), email: row.email })));
  }
}

async function findTicket(db: Queryable, id: number): Promise<Ticket | undefined> {
  const [row] = await db.query<TicketRow>(`${SELECT_TICKETS} WHERE t.id = $1`, [id]);
  return row ? toTicket(row) : undefined;
}

async function insertMessage(db: Queryable, ticketId: number, author: TicketAuthor, body: string) {
  await db.query(
    `INSERT INTO ticket_messages (ticket_id, author_id, author_email, from_support, body) VALUES ($1, $2, $3, $4, $5)`,
    [ticketId, author.id, author.email, author.fromSupport, body],
  );
}
