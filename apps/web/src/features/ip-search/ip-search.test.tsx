import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { IpSearchAnswer, IpSearchMatch } from '@guardian/contract';
import { setToken } from '../../lib/auth-token';
import { fakeApi } from '../../test/fake-api';
import { jsonResponse, renderApp } from '../../test/render-app';
import { sessionToken } from '../../test/token';

const SEARCH = 'GET /api/cloudflare/ip-search';
const SLOW = { timeout: 20_000 };

const match = (overrides: Partial<IpSearchMatch> = {}): IpSearchMatch => ({
  account_name: 'Guardian Demo',
  account_id: 'acc-demo',
  list_id: 'list-one',
  list_name: 'blocked_ips',
  kind: 'ip',
  item_id: 7,
  ip: '203.0.113.7',
  comment: 'ssh brute force',
  created_on: '2025-03-04T05:06:07Z',
  relation: 'exact',
  added_via: 'cloudflare',
  added_by: '',
  expires_at: null,
  ...overrides,
});

const answer = (overrides: Partial<IpSearchAnswer> = {}): IpSearchAnswer => ({
  query: { kind: 'address', value: '203.0.113.7' },
  lists_searched: 3,
  matches: [
    match(),
    match({
      account_name: 'Second Co',
      list_id: 'list-two',
      list_name: 'scanners',
      item_id: 3,
      ip: '203.0.113.0/24',
      comment: 'whole range',
      relation: 'contains',
    }),
  ],
  truncated: false,
  ...overrides,
});

const refusal = (message: string) => () =>
  jsonResponse(400, { code: 'BAD_REQUEST', message, errors: [{ message }] });

beforeEach(() => {
  setToken(sessionToken({ level: 1 }));
});

async function openPage(path = '/cloudflare/ips') {
  const user = userEvent.setup();
  const view = renderApp(path);
  const box = await screen.findByLabelText('IP address, CIDR, hostname or AS number', {}, { timeout: 5_000 });
  return { user, box, ...view };
}

describe('IP Lists: where is this address?', () => {
  it(
    'searches every list for an address and shows where it is listed, linked to the list',
    SLOW,
    async () => {
      const api = fakeApi({ [SEARCH]: () => jsonResponse(200, answer()) });
      const { user, box, router } = await openPage();
      expect(screen.getByRole('heading', { name: 'IP Lists' })).toBeInTheDocument();
      // Nothing is asked before a search.
      expect(api.callsTo(SEARCH)).toHaveLength(0);
      expect(screen.getByRole('button', { name: 'Search' })).toBeDisabled();

      await user.type(box, ' 203.0.113.7 {Enter}');
      const table = await screen.findByRole('table', { name: 'Lists holding the search' });
      expect(api.callsTo(SEARCH).map((call) => call.params.get('q'))).toEqual(['203.0.113.7']);
      expect(router.state.location.search).toBe('?q=203.0.113.7');
      const rows = within(table).getAllByRole('row').slice(1);
      expect(rows).toHaveLength(2);
      expect(within(rows[0]!).getByRole('cell', { name: 'Guardian Demo' })).toBeInTheDocument();
      expect(within(rows[0]!).getByText('Exact')).toBeInTheDocument();
      expect(within(rows[1]!).getByText('203.0.113.0/24')).toBeInTheDocument();
      expect(within(rows[1]!).getByText('Holds it')).toBeInTheDocument();
      expect(within(rows[1]!).getByText('whole range')).toBeInTheDocument();
      expect(within(rows[0]!).getByRole('link', { name: 'blocked_ips' })).toHaveAttribute(
        'href',
        '/cloudflare/banlists/list-one/items',
      );
      expect(screen.getByText(/2 matches for/)).toHaveTextContent(
        '2 matches for 203.0.113.7 in 2 lists (3 IP lists searched).',
      );
    },
  );

  it('runs the search of the address (?q=) and says when nothing holds it', SLOW, async () => {
    const api = fakeApi({
      [SEARCH]: () =>
        jsonResponse(200, answer({ query: { kind: 'cidr', value: '192.0.2.0/24' }, matches: [] })),
    });
    const { box } = await openPage('/cloudflare/ips?q=192.0.2.9%2F24');
    expect(box).toHaveValue('192.0.2.9/24');
    expect(await screen.findByText('192.0.2.0/24 is in none of your 3 IP lists.')).toBeInTheDocument();
    expect(api.callsTo(SEARCH)[0]!.params.get('q')).toBe('192.0.2.9/24');
  });

  it('says when the answer stops at its bound', SLOW, async () => {
    fakeApi({
      [SEARCH]: () =>
        jsonResponse(200, answer({ query: { kind: 'cidr', value: '10.0.0.0/8' }, truncated: true })),
    });
    await openPage('/cloudflare/ips?q=10.0.0.0%2F8');
    expect(
      await screen.findByText(
        'Showing the first 500 matches. Narrow the search (a longer prefix) to see the others.',
      ),
    ).toHaveAttribute('role', 'status');
    expect(screen.getByText(/matches for/)).toHaveTextContent('More than 2 matches for 10.0.0.0/8');
  });

  it("shows the server's refusal of a search under the box, without Retry", SLOW, async () => {
    fakeApi({ [SEARCH]: refusal('"10.0.0.256" is not a valid IPv4 or IPv6 address or CIDR.') });
    const { user, box } = await openPage();
    await user.type(box, '10.0.0.256{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('"10.0.0.256" is not a valid IPv4 or IPv6 address or CIDR.');
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(box.getAttribute('aria-describedby')).toContain(alert.id);
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('a failed search offers Retry, which asks again', SLOW, async () => {
    const api = fakeApi({
      [SEARCH]: () =>
        jsonResponse(503, {
          code: 'UNAVAILABLE',
          message: 'The database is unavailable.',
          errors: [{ message: 'The database is unavailable.' }],
        }),
    });
    const { user } = await openPage('/cloudflare/ips?q=203.0.113.7');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to search your lists. The database is unavailable.',
    );
    api.answer(SEARCH, () => jsonResponse(200, answer()));
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByRole('table', { name: 'Lists holding the search' });
    await waitFor(() => expect(api.callsTo(SEARCH)).toHaveLength(2));
  });

  it('says so when the person has no list of the kind', SLOW, async () => {
    fakeApi({
      [SEARCH]: () =>
        jsonResponse(
          200,
          answer({ query: { kind: 'hostname', value: 'bad.example.com' }, lists_searched: 0, matches: [] }),
        ),
    });
    await openPage('/cloudflare/ips?q=bad.example.com');
    expect(
      await screen.findByText(
        'You have no hostname lists to search. Lists show here once they are in Ban Lists.',
      ),
    ).toBeInTheDocument();
  });
});
