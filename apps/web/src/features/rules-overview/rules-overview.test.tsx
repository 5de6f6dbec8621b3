import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RulesOverviewZone, Zone } from '@guardian/contract';
import { setToken } from '../../lib/auth-token';
import { fakeApi, type Call, type FakeApi, upstreamFailure, UPSTREAM_REASON } from '../../test/fake-api';
import { jsonResponse, renderApp } from '../../test/render-app';
import { sessionToken } from '../../test/token';

const OVERVIEW = 'GET /api/cloudflare/rules-overview';

function zone(n: number): Zone {
  const domain = `zone-${String(n).padStart(2, '0')}.com`;
  return {
    id: `id-${domain}`,
    domain,
    accountName: 'Guardian Demo',
    account_id: 'acc',
    status: 'active',
    name_servers: [],
  };
}

/** 30 zones: two pages of 25. */
const ZONES = Array.from({ length: 30 }, (_, i) => zone(i + 1));

/** Each zone has (its number) firewall rules and one page rule; zone-03's page rules fail. */
function overviewOf(zoneId: string, search: string): RulesOverviewZone {
  const n = Number(/zone-(\d+)/.exec(zoneId)![1]);
  const matching = search !== '' && n === 2;
  return {
    zone_id: zoneId,
    domain: zoneId.slice(3),
    firewallRules: {
      total: n,
      matchCount: matching ? 1 : 0,
      matches: matching
        ? [
            {
              id: 'r1',
              priority: 2,
              description: 'Admin area',
              expression: '(http.request.uri.path contains "/wp-admin")',
              action: 'block',
              paused: false,
            },
          ]
        : [],
    },
    pageRules:
      n === 3
        ? { error: 'Page Rules endpoint does not support account owned tokens' }
        : { total: 1, matchCount: 0, matches: [] },
  };
}

const answerOverview = (call: Call) =>
  jsonResponse(200, {
    zones: call.params
      .get('zone_ids')!
      .split(',')
      .map((id) => overviewOf(id, call.params.get('search') ?? '')),
  });

let api: FakeApi;

beforeEach(() => {
  setToken(sessionToken({ level: 1 }));
  api = fakeApi({ 'GET /api/cloudflare/zones': () => jsonResponse(200, ZONES), [OVERVIEW]: answerOverview });
});

async function openOverview() {
  const user = userEvent.setup();
  renderApp('/cloudflare/rules');
  await screen.findByRole('heading', { level: 1, name: 'Rules' });
  return user;
}

const row = (domain: string) => screen.getByRole('listitem', { name: domain });

describe('rules overview', () => {
  it('counts each zone’s rules, 25 zones a page, read 5 zones a request one after the other', async () => {
    const user = await openOverview();
    await waitFor(() => expect(screen.getByText('Zones 1-25 of 30')).toBeInTheDocument());
    expect(within(row('zone-07.com')).getByText('Firewall rules:').parentElement).toHaveTextContent(
      'Firewall rules: 7',
    );
    expect(within(row('zone-07.com')).getByRole('link', { name: 'zone-07.com' })).toHaveAttribute(
      'href',
      '/cloudflare/zones/id-zone-07.com/rules',
    );
    const asked = api.callsTo(OVERVIEW).map((call) => call.params.get('zone_ids')!.split(',').length);
    expect(asked).toEqual([5, 5, 5, 5, 5]);

    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(screen.getByText('Zones 26-30 of 30')).toBeInTheDocument());
    expect(row('zone-30.com')).toHaveTextContent('Firewall rules: 30');
  });

  it('shows its progress while it reads', async () => {
    const held = api.held(OVERVIEW);
    await openOverview();
    expect(await screen.findByText('Reading rules from Cloudflare: 0 of 25 zones')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Reading rules from Cloudflare' })).toHaveAttribute(
      'aria-valuenow',
      '0',
    );
    expect(within(row('zone-01.com')).getByText('Loading...')).toBeInTheDocument();
    // One request at a time: the next batch waits for this one.
    expect(api.callsTo(OVERVIEW)).toHaveLength(1);
    held.release();
    await waitFor(() => expect(screen.getByText('Zones 1-25 of 30')).toBeInTheDocument());
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('shows a failed zone’s error in its row, and a failed request in its zones’ rows only', async () => {
    api.answer(OVERVIEW, (call) =>
      call.params.get('zone_ids')!.includes('zone-06.com') ? upstreamFailure() : answerOverview(call),
    );
    await openOverview();
    await waitFor(() => expect(screen.getByText('Zones 1-25 of 30')).toBeInTheDocument());
    expect(row('zone-03.com')).toHaveTextContent(
      'Page rules: Page Rules endpoint does not support account owned tokens',
    );
    expect(row('zone-03.com')).toHaveTextContent('Firewall rules: 3');
    expect(row('zone-06.com')).toHaveTextContent(UPSTREAM_REASON);
    expect(row('zone-10.com')).toHaveTextContent(UPSTREAM_REASON);
    expect(row('zone-11.com')).toHaveTextContent('Firewall rules: 11');
  });

  it('searches the zones of the page by description or expression and lists the matches', async () => {
    const user = await openOverview();
    await waitFor(() => expect(screen.getByText('Zones 1-25 of 30')).toBeInTheDocument());
    await user.type(screen.getByRole('searchbox', { name: 'Search rules' }), 'wp-admin');
    await waitFor(() =>
      expect(screen.getByText('1 matching rule in the 25 zones of this page')).toBeInTheDocument(),
    );
    expect(api.callsTo(OVERVIEW).at(-1)!.params.get('search')).toBe('wp-admin');
    expect(row('zone-02.com')).toHaveTextContent('Admin area');
    expect(row('zone-02.com')).toHaveTextContent('(http.request.uri.path contains "/wp-admin")');
    expect(row('zone-02.com')).toHaveTextContent('Firewall rules: 2 (1 match)');
    // Zones without a match are left out; zone-03, whose page rules failed, stays with its error.
    expect(screen.queryByRole('listitem', { name: 'zone-01.com' })).not.toBeInTheDocument();
    expect(row('zone-03.com')).toHaveTextContent('Page Rules endpoint does not support account owned tokens');
    expect(
      screen.getByText('23 zones of this page without matching rules are not shown.'),
    ).toBeInTheDocument();
  });
});
