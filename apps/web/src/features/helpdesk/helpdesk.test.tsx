import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TicketsPage } from '@guardian/contract';
import { setToken } from '../../lib/auth-token';
import { fakeApi } from '../../test/fake-api';
import { jsonResponse, renderApp } from '../../test/render-app';
import { ticketMessageOf, ticketThreadOf, withReply } from '../../test/ticket';
import { sessionToken } from '../../test/token';

const waiting = ticketThreadOf(12, 'Token expired?', [
  ticketMessageOf(1, 'person', 'My token says expired.', '2026-11-29T10:00:00.000Z'),
]);

describe('the Helpdesk', () => {
  it('filters the queue, assigns a ticket and answers it', async () => {
    setToken(sessionToken({ level: 0 }));
    const user = userEvent.setup();
    let current = waiting;
    const api = fakeApi({
      'GET /api/admin/tickets': () =>
        jsonResponse(200, { tickets: [current], next_cursor: null } satisfies TicketsPage),
      'GET /api/admin/tickets/assignees': () =>
        jsonResponse(200, { assignees: [{ id: 1, email: 'admin@guardian.local' }] }),
      'GET /api/admin/tickets/12': () => jsonResponse(200, current),
      'POST /api/admin/tickets/12/assign': () => {
        current = { ...current, assignee: { id: 1, email: 'admin@guardian.local' } };
        return jsonResponse(200, current);
      },
      'POST /api/admin/tickets/12/replies': (call) => {
        const body = (call.body as { message: string }).message;
        current = withReply(current, ticketMessageOf(2, 'support', body, '2026-11-29T11:00:00.000Z'), {
          state: 'answered',
        });
        return jsonResponse(200, current);
      },
    });
    renderApp('/admin/helpdesk');
    await user.click(await screen.findByRole('button', { name: /Token expired\?/ }));
    expect(api.callsTo('GET /api/admin/tickets')[0]?.params.get('state')).toBe('open');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Category' }), 'account');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Assigned to' }), 'none');
    const last = api.callsTo('GET /api/admin/tickets').at(-1)!;
    expect(last.params.get('category')).toBe('account');
    expect(last.params.get('assignee')).toBe('none');

    const article = await screen.findByRole('article', { name: 'Ticket: Token expired?' });
    await user.selectOptions(within(article).getByRole('combobox', { name: 'Assignee' }), '1');
    expect(await screen.findByText('Assigned to admin@guardian.local.')).toBeVisible();
    expect(api.sent('POST /api/admin/tickets/12/assign')).toEqual([{ assignee_id: 1 }]);

    await user.type(
      within(article).getByRole('textbox', { name: 'Reply' }),
      'Replace it on the Accounts page.',
    );
    await user.click(within(article).getByRole('button', { name: 'Send reply' }));
    expect(await screen.findByText('Answer sent: the person is told.')).toBeVisible();
    expect(await within(article).findByText('Replace it on the Accounts page.')).toBeVisible();
    expect(within(article).getByText('Answered')).toBeVisible();
  });

  it('tells a level-1 person it is for administrators, without asking the server', async () => {
    setToken(sessionToken({ level: 1 }));
    const api = fakeApi();
    renderApp('/admin/helpdesk');
    expect(await screen.findByText('Only administrators answer tickets.')).toBeVisible();
    expect(api.callsTo('GET /api/admin/tickets')).toHaveLength(0);
  });
});
