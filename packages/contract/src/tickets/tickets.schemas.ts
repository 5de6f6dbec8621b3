import { z } from 'zod';
import { keysOf } from '../shared/closed-set';
import { cursorQueryFields } from '../shared/paging';
import LABELS from '../shared/labels.en.json';

/*
 * Support tickets (server: apps/server/src/modules/tickets): a person writes to the people who run
 * Guardian, and administrators answer from the Helpdesk. A ticket is a subject, a category and a thread
 * of plain-text messages.
 */

/** Each category of ticket, and what it is called in the forms and the Helpdesk's filter. */
export const TICKET_CATEGORY_LABELS = LABELS.ticketCategories;
export type TicketCategory = keyof typeof TICKET_CATEGORY_LABELS;
export const TICKET_CATEGORIES = keysOf(TICKET_CATEGORY_LABELS);

/**
 * `open`: waiting for support (new, or the person wrote last); `answered`: support wrote last, waiting
 * for the person; `closed`: done (either side closed it; it takes no more messages).
 */
export const TICKET_STATE_LABELS = LABELS.ticketStates;
export type TicketState = keyof typeof TICKET_STATE_LABELS;
export const TICKET_STATES = keysOf(TICKET_STATE_LABELS);

export const TICKET_SUBJECT_MIN = 3;
export const TICKET_SUBJECT_MAX = 150;
export const TICKET_MESSAGE_MAX = 5_000;
/** Messages one ticket holds (its opening one included): past it, a new ticket. */
export const TICKET_MESSAGES_MAX = 200;
/** Tickets a person may have open or answered at once. */
export const TICKETS_OPEN_PER_PERSON_MAX = 20;
/** The most tickets one page holds. */
export const TICKETS_PAGE_MAX = 100;
/** The most administrators the Helpdesk offers to assign (and tells of a new ticket). */
export const TICKET_ASSIGNEES_MAX = 100;

const subjectField = z
  .string({ error: 'Subject is required.' })
  .trim()
  .min(TICKET_SUBJECT_MIN, `The subject must be at least ${TICKET_SUBJECT_MIN} characters.`)
  .max(TICKET_SUBJECT_MAX, `The subject must be at most ${TICKET_SUBJECT_MAX} characters.`)
  // One line: the subject names the ticket in lists, alerts and the audit trail.
  .regex(/^[^\p{C}\p{Zl}\p{Zp}]*$/u, 'The subject must be one line of printable characters.');

const messageField = z
  .string({ error: 'A message is required.' })
  .trim()
  .min(1, 'A message is required.')
  .max(
    TICKET_MESSAGE_MAX,
    `A message must be at most ${TICKET_MESSAGE_MAX.toLocaleString('en-US')} characters.`,
  )
  // Line breaks and tabs are kept; other control characters (NUL, escapes) are not text.
  .regex(/^(?:[^\p{Cc}]|[\t\n\r])*$/u, 'A message may hold only text, line breaks and tabs.');

export const openTicketRequestSchema = z.object({
  subject: subjectField,
  category: z.enum(TICKET_CATEGORIES, { error: `Category must be one of ${TICKET_CATEGORIES.join(', ')}.` }),
  message: messageField,
});
export type OpenTicketRequest = z.input<typeof openTicketRequestSchema>;

export const ticketReplyRequestSchema = z.object({ message: messageField });
export type TicketReplyRequest = z.input<typeof ticketReplyRequestSchema>;

const idField = (what: string) =>
  z.coerce
    .number({ error: `The ${what} id must be a number.` })
    .int(`The ${what} id must be a number.`)
    .positive(`The ${what} id must be a number.`)
    .max(Number.MAX_SAFE_INTEGER, `The ${what} id must be a number.`);

export const assignTicketRequestSchema = z.object({
  /** The administrator who takes the ticket; null: nobody. */
  assignee_id: idField('administrator').nullable(),
});
export type AssignTicketRequest = z.input<typeof assignTicketRequestSchema>;

export const ticketParamsSchema = z.object({ id: idField('ticket') });

const personSchema = z.object({ id: z.number().int(), email: z.string() });
export type TicketPerson = z.infer<typeof personSchema>;

export const ticketSchema = z.object({
  id: z.number().int(),
  subject: z.string(),
  category: z.enum(TICKET_CATEGORIES),
  state: z.enum(TICKET_STATES),
  /** Who opened it. */
  person: personSchema,
  /** The administrator who took it, if any. */
  assignee: personSchema.nullable(),
  message_count: z.number().int().positive(),
  created_at: z.string(),
  /** When its last message was written, or it was closed. */
  updated_at: z.string(),
  closed_at: z.string().nullable(),
});
export type Ticket = z.infer<typeof ticketSchema>;

export const ticketMessageSchema = z.object({
  id: z.number().int(),
  /** `person`: the ticket's own person; `support`: an administrator. */
  from: z.enum(['person', 'support']),
  author_email: z.string(),
  /** Plain text as written (line breaks kept): shown as text, never as HTML. */
  body: z.string(),
  created_at: z.string(),
});
export type TicketMessage = z.infer<typeof ticketMessageSchema>;

/** A ticket with its whole thread, oldest message first. */
export const ticketThreadSchema = ticketSchema.extend({ messages: z.array(ticketMessageSchema) });
export type TicketThread = z.infer<typeof ticketThreadSchema>;

const pageFields = {
  state: z.enum(TICKET_STATES, { error: `State must be one of ${TICKET_STATES.join(', ')}.` }).optional(),
  ...cursorQueryFields(TICKETS_PAGE_MAX),
};

export const ticketsQuerySchema = z.object(pageFields);
export type TicketsQuery = z.input<typeof ticketsQuerySchema>;

export const helpdeskQuerySchema = z.object({
  ...pageFields,
  category: z
    .enum(TICKET_CATEGORIES, { error: `Category must be one of ${TICKET_CATEGORIES.join(', ')}.` })
    .optional(),
  /** Part of the e-mail of the person who opened it. */
  person: z.string().trim().max(254, 'The person filter must be at most 254 characters.').optional(),
  /** `me`: assigned to the caller; `none`: to nobody. */
  assignee: z.enum(['me', 'none'], { error: 'Assignee must be me or none.' }).optional(),
});
export type HelpdeskQuery = z.input<typeof helpdeskQuerySchema>;

export const ticketsPageSchema = z.object({
  /** Most recently active first. */
  tickets: z.array(ticketSchema),
  /** Pass as `before` for the next page; null on the last page. */
  next_cursor: z.number().int().nullable(),
});
export type TicketsPage = z.infer<typeof ticketsPageSchema>;

/** The administrators a ticket may be assigned to. */
export const ticketAssigneesSchema = z.object({ assignees: z.array(personSchema) });
export type TicketAssignees = z.infer<typeof ticketAssigneesSchema>;
