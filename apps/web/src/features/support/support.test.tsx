import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TicketsPage } from '@guardian/contract';
import { setToken } from '../../lib/auth-token';
import { fakeApi } from '../../test/fake-api';
import { jsonResponse, renderApp } from '../../test/render-app';
import { ticketMessageOf, ticketThreadOf, withReply } from '../../test/ticket';
import { sessionToken } from '../../test/token';

beforeEach(() => {
  setToken(sessionToken({ level: 1 }));
});

describe('the user guide and the FAQ', () => {
  it('renders the guide from Markdown by section and keeps the sections that hold every searched word, marked', async () => {
    const user = userEvent.setup();
    fakeApi();
    renderApp('/support/guide');
    expect(await screen.findByRole('heading', { level: 1, name: 'Guardian user guide' })).toBeVisible();
    const everySection = screen.getAllByRole('region').length;
    expect(everySection).toBeGreaterThan(10);
    expect(screen.getByRole('region', { name: 'Ban lists' })).toBeVisible();

    await user.type(screen.getByRole('searchbox', { name: 'Search the guide' }), 'recovery codes');
    await waitFor(() => expect(screen.getAllByRole('region').length).toBeLessThan(everySection));
    const kept = screen.getAllByRole('region');
    for (const section of kept) expect(section.textContent?.toLowerCase()).toContain('recovery');
    expect(screen.getByRole('region', { name: 'Your profile, two-factor and API keys' })).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Zones and DNS records' })).toBeNull();
    const marks = kept[0]!.querySelectorAll('mark');
    expect([...marks].map((mark) => mark.textContent?.toLowerCase())).toContain('recovery');
    expect(screen.getByText(new RegExp(`^${kept.length} of ${everySection} sections match`))).toBeVisible();

    await user.clear(screen.getByRole('searchbox', { name: 'Search the guide' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search the guide' }), 'zzqx nothing');
    expect(await screen.findByText(/No section holds every word/)).toBeVisible();
  });

  it('answers the questions of the FAQ: the 12-hour list write budget and account-owned tokens', async () => {
    const user = userEvent.setup();
    fakeApi();
    renderApp('/support/faq');
    expect(await screen.findByRole('heading', { level: 1, name: 'FAQ' })).toBeVisible();
    expect(screen.getByRole('region', { name: 'What is the 12-hour list write budget?' })).toHaveTextContent(
      '1,000,000 list item changes',
    );
    await user.type(screen.getByRole('searchbox', { name: 'Search the questions' }), 'page rules');
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'How do I turn on two-factor sign-in?' })).toBeNull(),
    );
    expect(
      screen.getByRole('region', { name: "Why can't I see or change page rules on one account?" }),
    ).toBeVisible();
  });
});

const thread = ticketThreadOf(
  4,
  'Cannot add a zone',
  [
    ticketMessageOf(1, 'person', 'Adding example.com fails.', '2026-11-29T10:00:00.000Z'),
    ticketMessageOf(
      2,
      'support',
      '<img src=x onerror="alert(1)">\nCheck the name servers.',
      '2026-11-29T11:00:00.000Z',
    ),
  ],
  { category: 'cloudflare', state: 'answered' },
);

describe('the ticket page', () => {
  it("shows a ticket's thread as text (no HTML, line breaks kept), replies and closes it", async () => {
    const user = userEvent.setup();
    let current = thread;
    const api = fakeApi({
      'GET /api/support/tickets': () =>
        jsonResponse(200, { tickets: [current], next_cursor: null } satisfies TicketsPage),
      'GET /api/support/tickets/4': () => jsonResponse(200, current),
      'POST /api/support/tickets/4/replies': (call) => {
        const body = (call.body as { message: string }).message;
        current = withReply(current, ticketMessageOf(3, 'person', body, '2026-11-29T12:00:00.000Z'), {
          state: 'open',
        });
        return jsonResponse(200, current);
      },
      'POST /api/support/tickets/4/close': () => {
        current = { ...current, state: 'closed', closed_at: '2026-11-29T12:05:00.000Z' };
        return jsonResponse(200, current);
      },
    });
    renderApp('/support/ticket');
    await user.click(await screen.findByRole('button', { name: /Cannot add a zone/ }));
    const article = await screen.findByRole('article', { name: 'Ticket: Cannot add a zone' });
    const answer = within(article).getByText(/Check the name servers/);
    // The answer is text: its markup shows as written, and makes no element.
    expect(answer.textContent).toBe('<img src=x onerror="alert(1)">\nCheck the name servers.');
    expect(article.querySelector('img')).toBeNull();
    expect(answer).toHaveClass('whitespace-pre-wrap');

    await user.type(within(article).getByRole('textbox', { name: 'Reply' }), 'Done, thanks.');
    await user.click(within(article).getByRole('button', { name: 'Send reply' }));
    expect(await screen.findByText('Reply sent.')).toBeVisible();
    expect(api.sent('POST /api/support/tickets/4/replies')).toEqual([{ message: 'Done, thanks.' }]);
    expect(await within(article).findByText('Done, thanks.')).toBeVisible();
    expect(within(article).getByRole('textbox', { name: 'Reply' })).toHaveValue('');

    await user.click(within(article).getByRole('button', { name: 'Close ticket' }));
    expect(await screen.findByText('Ticket closed.')).toBeVisible();
    expect(await within(article).findByText(/This ticket is closed/)).toBeVisible();
    expect(within(article).queryByRole('textbox', { name: 'Reply' })).toBeNull();
  });

  it('opens a new ticket with its subject, category and message, and shows the server refusing one', async () => {
    const user = userEvent.setup();
    const opened = ticketThreadOf(9, 'Where are my servers?', [thread.messages[0]!], {
      category: 'cloudflare',
    });
    const api = fakeApi({
      'GET /api/support/tickets': () =>
        jsonResponse(200, { tickets: [], next_cursor: null } satisfies TicketsPage),
      'POST /api/support/tickets': () =>
        jsonResponse(409, {
          code: 'CONFLICT',
          message: 'You have 20 tickets that are not closed: close one before opening another.',
          errors: [],
        }),
      'GET /api/support/tickets/9': () => jsonResponse(200, opened),
    });
    renderApp('/support/ticket');
    expect(await screen.findByText(/You have no tickets yet/)).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'New ticket' }));
    const dialog = await screen.findByRole('dialog', { name: 'New ticket' });
    await user.click(within(dialog).getByRole('button', { name: 'Open ticket' }));
    expect(within(dialog).getByText('The subject must be at least 3 characters.')).toBeVisible();
    expect(api.callsTo('POST /api/support/tickets')).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: /Subject/ }), 'Where are my servers?');
    await user.selectOptions(within(dialog).getByRole('combobox', { name: /Category/ }), 'servers');
    await user.type(within(dialog).getByRole('textbox', { name: /Message/ }), 'Line one{enter}Line two');
    await user.click(within(dialog).getByRole('button', { name: 'Open ticket' }));
    expect(await within(dialog).findByText(/close one before opening another/)).toBeVisible();

    api.answer('POST /api/support/tickets', () => jsonResponse(201, opened));
    await user.click(within(dialog).getByRole('button', { name: 'Open ticket' }));
    expect(await screen.findByText('Ticket opened: support is told.')).toBeVisible();
    expect(api.sent('POST /api/support/tickets').at(-1)).toEqual({
      subject: 'Where are my servers?',
      category: 'servers',
      message: 'Line one\nLine two',
    });
    expect(await screen.findByRole('article', { name: 'Ticket: Where are my servers?' })).toBeVisible();
  });
});
