import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type {
  AccountCapacity,
  BanList,
  IpSearchActionAnswer,
  IpSearchAnswer,
  IpSearchFoundList,
  IpSearchMatch,
} from '@guardian/contract';
import { setToken } from '../../lib/auth-token';
import { banListOf } from '../../test/ban-list';
import { capacityOf } from '../../test/capacity';
import { fakeApi } from '../../test/fake-api';
import { jobOf } from '../../test/job';
import { errorResponse, jsonResponse, renderApp } from '../../test/render-app';
import { sessionToken } from '../../test/token';

const SEARCH = 'GET /api/cloudflare/ip-search';

const match = (overrides: Partial<IpSearchMatch> = {}): IpSearchMatch => ({
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

const list = (overrides: Partial<IpSearchFoundList> = {}): IpSearchFoundList => ({
  account_name: 'Guardian Demo',
  account_id: 'acc-demo',
  list_id: 'list-one',
  list_name: 'blocked_ips',
  kind: 'ip',
  matches: [match()],
  ...overrides,
});

const answer = (overrides: Partial<IpSearchAnswer> = {}): IpSearchAnswer => ({
  query: { kind: 'address', value: '203.0.113.7' },
  lists_searched: 3,
  lists: [
    list(),
    list({
      account_name: 'Second Co',
      account_id: 'acc-two',
      list_id: 'list-two',
      list_name: 'scanners',
      matches: [match({ item_id: 3, ip: '203.0.113.0/24', comment: 'whole range', relation: 'contains' })],
    }),
  ],
  truncated: false,
  ...overrides,
});

const refusal = (message: string) => () => errorResponse(400, 'BAD_REQUEST', message);

beforeEach(() => {
  setToken(sessionToken({ level: 1 }));
});

async function openPage(path = '/cloudflare/ips') {
  const user = userEvent.setup();
  const view = renderApp(path);
  const box = await screen.findByLabelText('IP address, CIDR, hostname or AS number');
  return { user, box, ...view };
}

describe('IP Lists: where is this address?', () => {
  it('searches every list for an address and shows where it is listed, linked to the list', async () => {
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
  });

  it('runs the search of the address (?q=) and says when nothing holds it', async () => {
    const api = fakeApi({
      [SEARCH]: () =>
        jsonResponse(200, answer({ query: { kind: 'cidr', value: '192.0.2.0/24' }, lists: [] })),
    });
    const { box } = await openPage('/cloudflare/ips?q=192.0.2.9%2F24');
    expect(box).toHaveValue('192.0.2.9/24');
    expect(await screen.findByText('192.0.2.0/24 is in none of your 3 IP lists.')).toBeInTheDocument();
    expect(api.callsTo(SEARCH)[0]!.params.get('q')).toBe('192.0.2.9/24');
  });

  it('says when the answer stops at its bound', async () => {
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

  it('shows a long answer 100 matches a page, and Choose every match chooses them all', async () => {
    const many = (value: string, count: number) =>
      answer({
        query: { kind: 'cidr', value },
        lists: [
          list({
            matches: Array.from({ length: count }, (_, index) =>
              match({ item_id: index + 1, ip: `10.0.${index >> 8}.${index & 255}`, relation: 'within' }),
            ),
          }),
        ],
      });
    fakeApi({
      [SEARCH]: (call) =>
        jsonResponse(
          200,
          call.params.get('q') === '10.0.0.0/23' ? many('10.0.0.0/23', 250) : many('10.0.0.0/24', 150),
        ),
    });
    const { user, box } = await openPage('/cloudflare/ips?q=10.0.0.0%2F23');
    const table = await screen.findByRole('table', { name: 'Lists holding the search' });
    expect(screen.getByText(/matches for/)).toHaveTextContent('250 matches for 10.0.0.0/23 in 1 list');
    const rows = () => within(table).getAllByRole('row').slice(1);
    expect(rows()).toHaveLength(100);
    expect(within(rows()[0]!).getByText('10.0.0.0')).toBeInTheDocument();

    const pages = screen.getByRole('navigation', { name: 'Pagination' });
    await user.click(within(pages).getByRole('button', { name: 'Page 3' }));
    expect(rows()).toHaveLength(50);
    expect(within(rows()[0]!).getByText('10.0.0.200')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Choose every match' }));
    expect(screen.getByRole('button', { name: 'Remove from 250 chosen' })).toBeEnabled();

    // Another search starts on its first page, with nothing chosen.
    await user.clear(box);
    await user.type(box, '10.0.0.0/24{Enter}');
    await waitFor(() => expect(screen.getByText(/matches for/)).toHaveTextContent('150 matches'));
    expect(rows()).toHaveLength(100);
    expect(within(rows()[0]!).getByText('10.0.0.0')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove from lists' })).toBeDisabled();
  });

  it("shows the server's refusal of a search under the box, without Retry", async () => {
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

  it('a failed search offers Retry, which asks again', async () => {
    const api = fakeApi({
      [SEARCH]: () => errorResponse(503, 'UNAVAILABLE', 'The database is unavailable.'),
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

  it('says so when the person has no list of the kind', async () => {
    fakeApi({
      [SEARCH]: () =>
        jsonResponse(
          200,
          answer({ query: { kind: 'hostname', value: 'bad.example.com' }, lists_searched: 0, lists: [] }),
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

const BAN = 'POST /api/cloudflare/ip-search/ban';
const REMOVE = 'POST /api/cloudflare/ip-search/remove';
const JOB_ONE = '11111111-1111-4111-8111-111111111111';
const JOB_TWO = '22222222-2222-4222-8222-222222222222';

const LISTS = [
  banListOf(1, 'blocked_ips', { account_id: 'acc-demo', list_id: 'list-one', items: 3 }),
  banListOf(2, 'bad_hosts', { account_id: 'acc-demo', list_id: 'list-host', kind: 'hostname', items: 1 }),
  banListOf(3, 'spare_ips', { account_id: 'acc-demo', list_id: 'list-three', items: 0 }),
  banListOf(4, 'scanners', {
    account_name: 'Second Co',
    account_id: 'acc-two',
    list_id: 'list-two',
    items: 10_000,
  }),
];

const CAPACITY: AccountCapacity[] = [
  capacityOf('Guardian Demo', 'acc-demo', 'enterprise', 'setting', [3, 1_000], [4, 500_000]),
  capacityOf('Second Co', 'acc-two', 'pro', 'setting', [1, 10], [10_000, 10_000]),
];

describe('IP Lists: Ban everywhere and Remove from lists', () => {
  it('bans the address in the chosen lists, grouped by account, the lists holding it marked, and shows each account finish or fail', async () => {
    const api = fakeApi({
      [SEARCH]: () => jsonResponse(200, answer()),
      'GET /api/cloudflare/banlists': () => jsonResponse(200, LISTS),
      'GET /api/cloudflare/capacity': () => jsonResponse(200, { accounts: CAPACITY }),
      [BAN]: () =>
        jsonResponse(202, {
          parts: [
            {
              account_name: 'Guardian Demo',
              account_id: 'acc-demo',
              lists: [{ list_id: 'list-three', list_name: 'spare_ips' }],
              job: jobOf({ id: JOB_ONE, kind: 'ban-everywhere', state: 'queued' }),
            },
            {
              account_name: 'Second Co',
              account_id: 'acc-two',
              lists: [{ list_id: 'list-two', list_name: 'scanners' }],
              job: jobOf({
                id: JOB_TWO,
                kind: 'ban-everywhere',
                account_name: 'Second Co',
                state: 'queued',
              }),
            },
          ],
        } satisfies IpSearchActionAnswer),
      [`GET /api/jobs/${JOB_ONE}`]: () =>
        jsonResponse(
          200,
          jobOf({
            id: JOB_ONE,
            kind: 'ban-everywhere',
            state: 'succeeded',
            done: 1,
            total: 1,
            result: { lists: [{ list_id: 'list-three', list_name: 'spare_ips', outcome: 'added' }] },
          }),
        ),
      [`GET /api/jobs/${JOB_TWO}`]: () =>
        jsonResponse(
          200,
          jobOf({
            id: JOB_TWO,
            kind: 'ban-everywhere',
            account_name: 'Second Co',
            state: 'failed',
            error: 'The list "scanners": Cloudflare refused the API token.',
          }),
        ),
    });
    const { user } = await openPage('/cloudflare/ips?q=203.0.113.7');
    await user.click(await screen.findByRole('button', { name: 'Ban everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ban everywhere' });
    // IP lists only, by account; the list holding the address exactly is marked and cannot be chosen.
    const demo = await within(dialog).findByRole('group', { name: 'Guardian Demo' });
    expect(within(demo).getByRole('checkbox', { name: /blocked_ips/ })).toBeDisabled();
    expect(within(demo).getByText('(already holds it)')).toBeInTheDocument();
    expect(within(dialog).queryByText('bad_hosts')).not.toBeInTheDocument();
    await user.click(within(demo).getByRole('checkbox', { name: 'spare_ips' }));
    expect(within(dialog).getByRole('button', { name: 'Ban in 1 list' })).toBeEnabled();
    const second = within(dialog).getByRole('group', { name: 'Second Co' });
    // "scanners" holds the /24, not the address: it can be chosen; Second Co is full.
    await user.click(within(second).getByRole('checkbox', { name: 'scanners' }));
    expect(within(dialog).getByRole('note')).toHaveTextContent(
      '"Second Co" has 10,000 of 10,000 list items (Pro plan): 1 more would pass it (0 left).',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Ban in 2 lists' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Comment is required.');
    expect(api.callsTo(BAN)).toHaveLength(0);
    await user.type(within(dialog).getByLabelText(/Comment/), 'credential stuffing');
    await user.selectOptions(within(dialog).getByLabelText('Expires'), '7d');
    await user.click(within(dialog).getByRole('button', { name: 'Ban in 2 lists' }));
    await waitFor(() =>
      expect(api.sent(BAN)).toEqual([
        {
          value: '203.0.113.7',
          comment: 'credential stuffing',
          list_ids: ['list-three', 'list-two'],
          expires: '7d',
        },
      ]),
    );
    const progress = await screen.findByRole('region', { name: 'Ban 203.0.113.7 everywhere' });
    const demoPart = within(progress).getByRole('listitem', { name: 'Guardian Demo' });
    const secondPart = within(progress).getByRole('listitem', { name: 'Second Co' });
    expect(await within(demoPart).findByText('spare_ips: added')).toBeInTheDocument();
    expect(await within(secondPart).findByText('Failed')).toBeInTheDocument();
    expect(
      within(secondPart).getByText('The list "scanners": Cloudflare refused the API token.'),
    ).toBeInTheDocument();
    expect(within(progress).getByRole('status')).toHaveTextContent(
      '1 of 2 accounts failed; the others are done.',
    );
  });

  it('marks each list block or allow, starts with the blocklists chosen, and asks before banning into an allowlist (issue 35 item 9)', async () => {
    const lists: BanList[] = [
      { ...LISTS[0]!, purpose: 'block', purpose_source: 'name' },
      { ...LISTS[2]!, list_name: 'office_allow', purpose: 'allow', purpose_source: 'name' },
      { ...LISTS[3]!, purpose: 'block', purpose_source: 'person' },
    ];
    const api = fakeApi({
      [SEARCH]: () => jsonResponse(200, answer()),
      'GET /api/cloudflare/banlists': () => jsonResponse(200, lists),
      'GET /api/cloudflare/capacity': () => jsonResponse(200, { accounts: [] }),
      [BAN]: () => jsonResponse(202, { parts: [] } satisfies IpSearchActionAnswer),
    });
    const { user } = await openPage('/cloudflare/ips?q=203.0.113.7');
    await user.click(await screen.findByRole('button', { name: 'Ban everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ban everywhere' });
    const scanners = await within(dialog).findByRole('checkbox', { name: 'scanners' });
    const allow = within(dialog).getByRole('checkbox', { name: 'office_allow' });
    // The blocklist is chosen to start with; the allowlist is marked and left out; the list
    // holding the address already stays out though it blocks.
    expect(scanners).toBeChecked();
    expect(scanners).toHaveAccessibleDescription('Blocklist, set by you');
    expect(allow).not.toBeChecked();
    expect(allow).toHaveAccessibleDescription('Allowlist, from the name');
    expect(within(dialog).getByRole('checkbox', { name: /blocked_ips/ })).not.toBeChecked();

    await user.click(allow);
    await user.type(within(dialog).getByLabelText(/Comment/), 'scanner');
    await user.click(within(dialog).getByRole('button', { name: 'Ban in 2 lists' }));
    const warning = await screen.findByRole('dialog', { name: 'Ban into an allowlist?' });
    expect(warning).toHaveTextContent(
      'office_allow (Guardian Demo) is an allowlist: Cloudflare lets the addresses of an allowlist through. Adding 203.0.113.7 there allows it instead of blocking it.',
    );
    await user.click(within(warning).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo(BAN)).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Ban in 2 lists' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Ban into an allowlist?' })).getByRole('button', {
        name: 'Ban in 2 lists anyway',
      }),
    );
    await waitFor(() =>
      expect(api.sent(BAN)).toEqual([
        { value: '203.0.113.7', comment: 'scanner', list_ids: ['list-two', 'list-three'] },
      ]),
    );
  });

  it('removes the chosen matches after a confirmation naming their lists', async () => {
    const api = fakeApi({
      [SEARCH]: () => jsonResponse(200, answer()),
      [REMOVE]: () =>
        jsonResponse(200, {
          parts: [
            {
              account_name: 'Second Co',
              account_id: 'acc-two',
              lists: [{ list_id: 'list-two', list_name: 'scanners' }],
              job: jobOf({
                id: JOB_TWO,
                kind: 'ip-search-remove',
                state: 'succeeded',
                result: { lists: [{ list_id: 'list-two', list_name: 'scanners', outcome: 'removed' }] },
              }),
            },
          ],
        } satisfies IpSearchActionAnswer),
    });
    const { user } = await openPage('/cloudflare/ips?q=203.0.113.7');
    const removeButton = await screen.findByRole('button', { name: 'Remove from lists' });
    expect(removeButton).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Choose 203.0.113.0/24 in scanners (Second Co)' }));
    await user.click(screen.getByRole('button', { name: 'Remove from 1 chosen' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove from lists' });
    expect(confirm).toHaveTextContent('203.0.113.0/24 from scanners (Second Co)');
    expect(confirm).not.toHaveTextContent('blocked_ips');
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(api.sent(REMOVE)).toEqual([{ items: [{ list_id: 'list-two', item_id: 3 }] }]));
    const progress = await screen.findByRole('region', { name: 'Remove 203.0.113.7 from 1 list' });
    expect(within(progress).getByText('scanners: removed')).toBeInTheDocument();
  });

  it('names each list on every row of its matches, and removes them under their list', async () => {
    const grouped = answer({
      lists: [
        list({
          matches: [
            match(),
            match({ item_id: 9, ip: '203.0.113.0/24', comment: 'whole range', relation: 'contains' }),
          ],
        }),
        list({
          account_name: 'Second Co',
          account_id: 'acc-two',
          list_id: 'list-two',
          list_name: 'scanners',
          matches: [match({ item_id: 3, ip: '203.0.0.0/16', relation: 'contains' })],
        }),
      ],
    });
    const api = fakeApi({
      [SEARCH]: () => jsonResponse(200, grouped),
      [REMOVE]: () => jsonResponse(200, { parts: [] } satisfies IpSearchActionAnswer),
    });
    const { user } = await openPage('/cloudflare/ips?q=203.0.113.7');
    const table = await screen.findByRole('table', { name: 'Lists holding the search' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByRole('link').textContent)).toEqual([
      'blocked_ips',
      'blocked_ips',
      'scanners',
    ]);
    expect(within(rows[1]!).getByRole('cell', { name: 'Guardian Demo' })).toBeInTheDocument();
    expect(screen.getByText(/3 matches for/)).toHaveTextContent(
      '3 matches for 203.0.113.7 in 2 lists (3 IP lists searched).',
    );
    await user.click(screen.getByRole('checkbox', { name: 'Choose every match' }));
    await user.click(screen.getByRole('button', { name: 'Remove from 3 chosen' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove from lists' });
    expect(confirm).toHaveTextContent('203.0.113.0/24 from blocked_ips (Guardian Demo)');
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(api.sent(REMOVE)).toEqual([
        {
          items: [
            { list_id: 'list-one', item_id: 7 },
            { list_id: 'list-one', item_id: 9 },
            { list_id: 'list-two', item_id: 3 },
          ],
        },
      ]),
    );
  });

  it('sends nothing when the person cancels the removal', async () => {
    const api = fakeApi({ [SEARCH]: () => jsonResponse(200, answer()) });
    const { user } = await openPage('/cloudflare/ips?q=203.0.113.7');
    await user.click(await screen.findByRole('checkbox', { name: 'Choose every match' }));
    await user.click(screen.getByRole('button', { name: 'Remove from 2 chosen' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove from lists' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo(REMOVE)).toHaveLength(0);
  });
});
