import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditEvent, AuditPage } from '@guardian/contract';
import { setToken } from '../../lib/auth-token';
import { fakeApi, type FakeApi } from '../../test/fake-api';
import { jsonResponse, renderApp } from '../../test/render-app';
import { sessionToken } from '../../test/token';

let api: FakeApi;

const event = (id: number, overrides: Partial<AuditEvent> = {}): AuditEvent => ({
  id,
  at: '2026-11-23T10:00:00.000Z',
  user_id: 1,
  actor: 'user@guardian.local',
  address: '127.0.0.1',
  action: 'banListItems.add',
  summary: `user@guardian.local added 192.0.2.${id} to block_list (account Acme)`,
  request: 'POST /api/cloudflare/banlists/{list_id}/items',
  account_id: 'acc-1',
  zone_id: null,
  target: { list_id: 'list-1', ip: `192.0.2.${id}` },
  outcome: 'success',
  status: 201,
  message: null,
  ...overrides,
});

const page = (events: AuditEvent[], next: number | null): AuditPage => ({ events, next_cursor: next });

beforeEach(() => {
  setToken(sessionToken({ level: 1 }));
  api = fakeApi({
    'GET /api/audit': (call) =>
      call.params.get('before') === '51'
        ? jsonResponse(200, page([event(50)], null))
        : jsonResponse(
            200,
            page(
              [
                event(52),
                event(51, { outcome: 'failed', status: 502, message: 'Cloudflare is unavailable.' }),
              ],
              51,
            ),
          ),
  });
});

async function openActivity() {
  const user = userEvent.setup();
  renderApp('/dashboard/activity');
  await screen.findByRole('heading', { name: 'Activity' });
  return user;
}

describe('Activity', () => {
  it("lists the person's own changes, newest first, with outcome and message, and loads older ones", async () => {
    const user = await openActivity();
    const list = await screen.findByRole('list', { name: 'Activity' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    // The event in words is the headline; the request and its fields are its details.
    expect(
      within(rows[0]!).getByText('user@guardian.local added 192.0.2.52 to block_list (account Acme)'),
    ).toHaveClass('font-medium');
    expect(rows[0]).toHaveTextContent('From 127.0.0.1');
    expect(rows[0]).toHaveTextContent('ip=192.0.2.52 · account acc-1');
    expect(within(rows[0]!).getByText('Details')).toBeInTheDocument();
    expect(rows[0]).toHaveTextContent('POST /api/cloudflare/banlists/{list_id}/items');
    expect(rows[0]).toHaveTextContent('ip=192.0.2.52');
    expect(rows[0]).toHaveTextContent('Done');
    expect(rows[1]).toHaveTextContent('Failed');
    expect(rows[1]).toHaveTextContent('Cloudflare is unavailable.');
    // Not the administrators' view: no person filter.
    expect(screen.queryByLabelText('Person')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3));
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('searches the words on the server: an address typed is asked as q', async () => {
    const user = await openActivity();
    await screen.findByRole('list', { name: 'Activity' });
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), ' 203.0.113.7 ');
    await waitFor(() => expect(api.callsTo('GET /api/audit').at(-1)!.params.get('q')).toBe('203.0.113.7'));
  });

  it('shows an event recorded before its words by its request', async () => {
    api.answer('GET /api/audit', () => jsonResponse(200, page([event(7, { summary: '' })], null)));
    await openActivity();
    const list = await screen.findByRole('list', { name: 'Activity' });
    expect(within(list).getAllByText('POST /api/cloudflare/banlists/{list_id}/items')[0]).toHaveClass(
      'font-medium',
    );
  });

  it('asks the server with the filters: kind, outcome and whole days', async () => {
    const user = await openActivity();
    await screen.findByRole('list', { name: 'Activity' });
    await user.selectOptions(screen.getByLabelText('Kind'), 'DNS records');
    await user.selectOptions(screen.getByLabelText('Outcome'), 'Failed');
    await waitFor(() => {
      const last = api.callsTo('GET /api/audit').at(-1)!;
      expect(last.params.get('action')).toBe('dnsRecords.');
      expect(last.params.get('outcome')).toBe('failed');
      expect(last.params.get('limit')).toBe('50');
    });
  });

  it('says why when the trail cannot be read, with Retry', async () => {
    api.answer('GET /api/audit', () =>
      // A 4xx is not retried, so the page says so at once.
      jsonResponse(400, {
        code: 'BAD_REQUEST',
        message: 'To must be a date and time (ISO 8601).',
        errors: [],
      }),
    );
    const user = await openActivity();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to fetch activity. To must be a date and time (ISO 8601).',
    );
    api.answer('GET /api/audit', () => jsonResponse(200, page([event(9)], null)));
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('list', { name: 'Activity' })).toHaveTextContent('ip=192.0.2.9');
  });
});
