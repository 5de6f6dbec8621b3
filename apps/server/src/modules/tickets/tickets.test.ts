import {
  TICKET_MESSAGE_MAX,
  TICKETS_OPEN_PER_PERSON_MAX,
  type AlertsPage,
  type TicketsPage,
  type TicketThread,
} from '@guardian/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../test/context';

describe('Support tickets and the Helpdesk', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  const call = (who: TestUser, method: 'GET' | 'POST', url: string, payload?: object) =>
    ctx.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
  const ok = async <T>(who: TestUser, method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await call(who, method, url, payload);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json<T>();
  };
  const alertsOf = async (who: TestUser) =>
    (await ok<AlertsPage>(who, 'GET', '/api/alerts?state=active')).alerts.filter((alert) =>
      alert.kind.startsWith('ticket-'),
    );
  const open = (who: TestUser, subject = 'Cannot add a zone') =>
    ok<TicketThread>(who, 'POST', '/api/support/tickets', {
      subject,
      category: 'cloudflare',
      message: 'Adding example.com answers an error.\nWhat does it mean?',
    });

  it('a person opens a ticket, support answers, the person reads, replies and closes it; both sides are told, audited', async () => {
    const ada = await ctx.createUser();
    const admin = await ctx.createUser({ level: 0 });
    const ticket = await open(ada);
    expect(ticket).toMatchObject({
      subject: 'Cannot add a zone',
      category: 'cloudflare',
      state: 'open',
      person: { id: ada.id, email: ada.email },
      assignee: null,
      message_count: 1,
      messages: [
        {
          from: 'person',
          author_email: ada.email,
          // Line breaks kept, as written.
          body: 'Adding example.com answers an error.\nWhat does it mean?',
        },
      ],
    });
    // Every administrator is told while nobody took it.
    expect(await alertsOf(admin)).toMatchObject([
      { kind: 'ticket-waiting', subject: { type: 'ticket', id: String(ticket.id) } },
    ]);

    const queue = await ok<TicketsPage>(admin, 'GET', `/api/admin/tickets?state=open&person=${ada.email}`);
    expect(queue.tickets.map((entry) => entry.id)).toEqual([ticket.id]);

    const html = '<img src=x onerror=alert(1)>\nSecond line';
    const answered = await ok<TicketThread>(admin, 'POST', `/api/admin/tickets/${ticket.id}/replies`, {
      message: html,
    });
    expect(answered.state).toBe('answered');
    // Stored and answered as text: the page shows it as text.
    expect(answered.messages.at(-1)).toMatchObject({
      from: 'support',
      author_email: admin.email,
      body: html,
    });
    expect(await alertsOf(admin)).toEqual([]);
    expect(await alertsOf(ada)).toMatchObject([
      { kind: 'ticket-replied', title: 'Support answered your ticket "Cannot add a zone".' },
    ]);

    // Reading it resolves the person's alert.
    const read = await ok<TicketThread>(ada, 'GET', `/api/support/tickets/${ticket.id}`);
    expect(read.messages.map((message) => message.from)).toEqual(['person', 'support']);
    expect(await alertsOf(ada)).toEqual([]);

    const replied = await ok<TicketThread>(ada, 'POST', `/api/support/tickets/${ticket.id}/replies`, {
      message: 'Thanks, that was it.',
    });
    expect(replied).toMatchObject({ state: 'open', message_count: 3 });
    expect(await alertsOf(admin)).toHaveLength(1);

    const closed = await ok<TicketThread>(ada, 'POST', `/api/support/tickets/${ticket.id}/close`);
    expect(closed).toMatchObject({ state: 'closed', closed_at: expect.any(String) });
    expect(await alertsOf(admin)).toEqual([]);
    // A closed ticket takes no more messages, from either side.
    const late = await call(ada, 'POST', `/api/support/tickets/${ticket.id}/replies`, {
      message: 'One more',
    });
    expect(late.statusCode).toBe(409);
    expect(late.json<{ message: string }>().message).toMatch(/closed/);
    expect(
      (await call(admin, 'POST', `/api/admin/tickets/${ticket.id}/replies`, { message: 'x' })).statusCode,
    ).toBe(409);

    const mine = await ok<TicketsPage>(ada, 'GET', '/api/support/tickets');
    expect(mine.tickets).toMatchObject([{ id: ticket.id, state: 'closed', message_count: 3 }]);

    const trail = await ctx.db.query<{ summary: string }>(
      `SELECT summary FROM audit_events WHERE (action LIKE 'tickets.%' OR action LIKE 'helpdesk.%')
         AND user_id IN ($1, $2) ORDER BY id`,
      [ada.id, admin.id],
    );
    expect(trail.map((event) => event.summary)).toEqual([
      `${ada.email} opened ticket "Cannot add a zone"`,
      `${admin.email} answered ticket ${ticket.id} as support`,
      `${ada.email} replied to ticket ${ticket.id}`,
      `${ada.email} closed ticket ${ticket.id}`,
      `${ada.email} tried to reply to ticket ${ticket.id} (refused)`,
      `${admin.email} tried to answer ticket ${ticket.id} as support (refused)`,
    ]);
  });

  it("another person's ticket is not found; a level-1 person is refused the Helpdesk", async () => {
    const ada = await ctx.createUser();
    const mallory = await ctx.createUser();
    const ticket = await open(ada, 'Private question');
    for (const [method, url, payload] of [
      ['GET', `/api/support/tickets/${ticket.id}`],
      ['POST', `/api/support/tickets/${ticket.id}/replies`, { message: 'mine now' }],
      ['POST', `/api/support/tickets/${ticket.id}/close`],
    ] as const) {
      expect((await call(mallory, method, url, payload)).statusCode, url).toBe(404);
    }
    expect((await ok<TicketsPage>(mallory, 'GET', '/api/support/tickets')).tickets).toEqual([]);
    for (const [method, url, payload] of [
      ['GET', '/api/admin/tickets'],
      ['GET', '/api/admin/tickets/assignees'],
      ['GET', `/api/admin/tickets/${ticket.id}`],
      ['POST', `/api/admin/tickets/${ticket.id}/replies`, { message: 'as support' }],
      ['POST', `/api/admin/tickets/${ticket.id}/assign`, { assignee_id: mallory.id }],
      ['POST', `/api/admin/tickets/${ticket.id}/close`],
    ] as const) {
      expect((await call(mallory, method, url, payload)).statusCode, url).toBe(403);
    }
    const still = await ok<TicketThread>(ada, 'GET', `/api/support/tickets/${ticket.id}`);
    expect(still).toMatchObject({ state: 'open', message_count: 1 });
  });

  it('bounds what a person sends: subject, category, message, and how many tickets are open', async () => {
    const ada = await ctx.createUser();
    const refused = async (payload: object, pattern: RegExp) => {
      const response = await call(ada, 'POST', '/api/support/tickets', payload);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(pattern);
    };
    const good = { subject: 'A question', category: 'question', message: 'Hello' };
    await refused({ ...good, subject: 'x' }, /at least 3/);
    await refused({ ...good, subject: 'y'.repeat(151) }, /at most 150/);
    await refused({ ...good, subject: 'two\nlines' }, /one line/);
    await refused({ ...good, category: 'billing' }, /Category must be one of/);
    await refused({ ...good, message: '   ' }, /message is required/);
    await refused({ ...good, message: 'z'.repeat(TICKET_MESSAGE_MAX + 1) }, /at most 5,000/);
    await refused({ ...good, message: 'bell\u0007' }, /only text/);
    expect((await call(ada, 'GET', '/api/support/tickets?limit=101')).statusCode).toBe(400);
    expect((await call(ada, 'GET', '/api/support/tickets/abc')).statusCode).toBe(400);

    for (let index = 0; index < TICKETS_OPEN_PER_PERSON_MAX; index += 1) await open(ada, `Question ${index}`);
    const over = await call(ada, 'POST', '/api/support/tickets', good);
    expect(over.statusCode).toBe(409);
    expect(over.json<{ message: string }>().message).toMatch(/close one/);

    // Pages by cursor, most recently active first.
    const first = await ok<TicketsPage>(ada, 'GET', '/api/support/tickets?limit=15');
    expect(first.tickets).toHaveLength(15);
    expect(first.tickets[0]!.subject).toBe(`Question ${TICKETS_OPEN_PER_PERSON_MAX - 1}`);
    const second = await ok<TicketsPage>(
      ada,
      'GET',
      `/api/support/tickets?limit=15&before=${first.next_cursor}`,
    );
    expect(second.tickets.map((ticket) => ticket.subject)).toEqual(
      Array.from({ length: 5 }, (_, index) => `Question ${4 - index}`),
    );
    expect(second.next_cursor).toBeNull();
  });

  it('administrators filter the queue, assign (to an administrator only) and close', async () => {
    const bo = await ctx.createUser();
    const first = await ctx.createUser({ level: 0 });
    const second = await ctx.createUser({ level: 0 });
    const billing = await ok<TicketThread>(bo, 'POST', '/api/support/tickets', {
      subject: 'Servers question',
      category: 'servers',
      message: 'How do I register a server?',
    });
    const other = await open(bo, 'Another one');

    const byCategory = await ok<TicketsPage>(
      first,
      'GET',
      `/api/admin/tickets?category=servers&person=${bo.email}`,
    );
    expect(byCategory.tickets.map((ticket) => ticket.id)).toEqual([billing.id]);

    const assignees = await ok<{ assignees: { id: number }[] }>(first, 'GET', '/api/admin/tickets/assignees');
    expect(assignees.assignees.map((admin) => admin.id)).toEqual(
      expect.arrayContaining([first.id, second.id]),
    );
    expect(assignees.assignees.map((admin) => admin.id)).not.toContain(bo.id);

    const notAdmin = await call(first, 'POST', `/api/admin/tickets/${billing.id}/assign`, {
      assignee_id: bo.id,
    });
    expect(notAdmin.statusCode).toBe(400);
    expect(notAdmin.json<{ message: string }>().message).toMatch(/only to an active administrator/);
    expect(
      (await call(first, 'POST', '/api/admin/tickets/999999999/assign', { assignee_id: null })).statusCode,
    ).toBe(404);

    const assigned = await ok<TicketThread>(first, 'POST', `/api/admin/tickets/${billing.id}/assign`, {
      assignee_id: second.id,
    });
    expect(assigned.assignee).toEqual({ id: second.id, email: second.email });
    // The waiting ticket is now its assignee's alone to answer.
    const waiting = (who: TestUser) =>
      alertsOf(who).then((alerts) => alerts.filter((alert) => alert.subject?.id === String(billing.id)));
    expect(await waiting(second)).toHaveLength(1);
    expect(await waiting(first)).toEqual([]);

    const mineOnly = await ok<TicketsPage>(second, 'GET', '/api/admin/tickets?assignee=me');
    expect(mineOnly.tickets.map((ticket) => ticket.id)).toEqual([billing.id]);
    const unassigned = await ok<TicketsPage>(
      first,
      'GET',
      `/api/admin/tickets?assignee=none&person=${bo.email}`,
    );
    expect(unassigned.tickets.map((ticket) => ticket.id)).toEqual([other.id]);

    const closed = await ok<TicketThread>(second, 'POST', `/api/admin/tickets/${billing.id}/close`);
    expect(closed.state).toBe('closed');
    expect(await waiting(second)).toEqual([]);
    const closedOnes = await ok<TicketsPage>(
      first,
      'GET',
      `/api/admin/tickets?state=closed&person=${bo.email}`,
    );
    expect(closedOnes.tickets.map((ticket) => ticket.id)).toEqual([billing.id]);
    expect((await call(first, 'GET', '/api/admin/tickets?state=pending')).statusCode).toBe(400);
  });
});
