import type { TicketMessage, TicketThread } from '@guardian/contract';

const PERSON = { id: 2, email: 'user@guardian.local' };
const SUPPORT_EMAIL = 'admin@guardian.local';

/** A message of a ticket's thread, by the person (user@guardian.local) or by support (admin@guardian.local). */
export const ticketMessageOf = (
  id: number,
  from: TicketMessage['from'],
  body: string,
  createdAt: string,
): TicketMessage => ({
  id,
  from,
  author_email: from === 'person' ? PERSON.email : SUPPORT_EMAIL,
  body,
  created_at: createdAt,
});

/**
 * A ticket's thread as the API answers it: the person's, an account question, open and unassigned,
 * opened with its first message and updated by its last, unless `overrides` say otherwise.
 */
export const ticketThreadOf = (
  id: number,
  subject: string,
  messages: [TicketMessage, ...TicketMessage[]],
  overrides: Partial<TicketThread> = {},
): TicketThread => ({
  id,
  subject,
  category: 'account',
  state: 'open',
  person: PERSON,
  assignee: null,
  message_count: messages.length,
  created_at: messages[0].created_at,
  updated_at: messages.at(-1)!.created_at,
  closed_at: null,
  messages,
  ...overrides,
});

/** The thread as a reply leaves it: the message added and counted, and `changes` (its new state). */
export const withReply = (
  thread: TicketThread,
  message: TicketMessage,
  changes: Partial<TicketThread> = {},
): TicketThread => ({
  ...thread,
  ...changes,
  message_count: thread.messages.length + 1,
  messages: [...thread.messages, message],
});
