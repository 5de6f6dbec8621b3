import {
  assignTicketRequestSchema,
  helpdeskQuerySchema,
  openTicketRequestSchema,
  ticketAssigneesSchema,
  ticketParamsSchema,
  ticketReplyRequestSchema,
  ticketsPageSchema,
  ticketsQuerySchema,
  ticketThreadSchema,
} from './tickets.schemas';
import { endpointGroup, signedInErrors } from '../shared/endpoint';

/** A person's own support tickets (another person's ticket is not found, administrators' too). */
export const ticketEndpoints = endpointGroup('Support tickets', {
  list: {
    method: 'GET',
    path: '/api/support/tickets',
    summary: "The person's tickets, most recently active first, filtered by state, paged by cursor.",
    query: ticketsQuerySchema,
    responses: { 200: ticketsPageSchema, ...signedInErrors() },
  },
  open: {
    method: 'POST',
    path: '/api/support/tickets',
    summary: 'Open a ticket: a subject, a category and a first message (plain text).',
    body: openTicketRequestSchema,
    responses: { 201: ticketThreadSchema, ...signedInErrors('CONFLICT') },
  },
  get: {
    method: 'GET',
    path: '/api/support/tickets/:id',
    summary: "One of the person's tickets with its thread; reading it resolves its reply alert.",
    params: ticketParamsSchema,
    responses: { 200: ticketThreadSchema, ...signedInErrors('NOT_FOUND') },
  },
  reply: {
    method: 'POST',
    path: '/api/support/tickets/:id/replies',
    summary: "Add a message to one of the person's tickets (not a closed one).",
    params: ticketParamsSchema,
    body: ticketReplyRequestSchema,
    responses: { 200: ticketThreadSchema, ...signedInErrors('NOT_FOUND', 'CONFLICT') },
  },
  close: {
    method: 'POST',
    path: '/api/support/tickets/:id/close',
    summary: "Close one of the person's tickets: it takes no more messages.",
    params: ticketParamsSchema,
    responses: { 200: ticketThreadSchema, ...signedInErrors('NOT_FOUND') },
  },
});

/** The Helpdesk: administrators answer everyone's tickets. */
export const helpdeskEndpoints = endpointGroup('Helpdesk', {
  list: {
    method: 'GET',
    path: '/api/admin/tickets',
    summary:
      "Everyone's tickets, most recently active first, filtered by state, category, person and assignee (administrators only).",
    access: 'admin',
    query: helpdeskQuerySchema,
    responses: { 200: ticketsPageSchema, ...signedInErrors('FORBIDDEN') },
  },
  assignees: {
    method: 'GET',
    path: '/api/admin/tickets/assignees',
    summary: 'The administrators a ticket may be assigned to (administrators only).',
    access: 'admin',
    responses: { 200: ticketAssigneesSchema, ...signedInErrors('FORBIDDEN') },
  },
  get: {
    method: 'GET',
    path: '/api/admin/tickets/:id',
    summary: 'A ticket with its thread (administrators only).',
    access: 'admin',
    params: ticketParamsSchema,
    responses: { 200: ticketThreadSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND') },
  },
  reply: {
    method: 'POST',
    path: '/api/admin/tickets/:id/replies',
    summary: 'Answer a ticket as support: its person is told (administrators only).',
    access: 'admin',
    params: ticketParamsSchema,
    body: ticketReplyRequestSchema,
    responses: { 200: ticketThreadSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND', 'CONFLICT') },
  },
  assign: {
    method: 'POST',
    path: '/api/admin/tickets/:id/assign',
    summary: 'Assign a ticket to an administrator, or to nobody (administrators only).',
    access: 'admin',
    params: ticketParamsSchema,
    body: assignTicketRequestSchema,
    responses: { 200: ticketThreadSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND') },
  },
  close: {
    method: 'POST',
    path: '/api/admin/tickets/:id/close',
    summary: 'Close a ticket: it takes no more messages (administrators only).',
    access: 'admin',
    params: ticketParamsSchema,
    responses: { 200: ticketThreadSchema, ...signedInErrors('FORBIDDEN', 'NOT_FOUND') },
  },
});
