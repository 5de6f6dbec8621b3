import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type {
  ErrorsReport,
  IpSearchActionAnswer,
  ReportScope,
  SecurityReport,
  TrafficReport,
} from '@guardian/contract';
import { banListOf } from '../../test/ban-list';
import type { FakeApi } from '../../test/fake-api';
import { jobOf } from '../../test/job';
import { errorResponse, jsonResponse, renderApp } from '../../test/render-app';
import {
  BLOG_ZONE as BLOG,
  OTHER_REPORT_ZONE as OTHER_ZONE,
  REPORT_ACCOUNT as ACCOUNT,
  REPORT_ZONE as ZONE,
  SHOP_ZONE as SHOP,
  ofZone,
  reportApi,
  rowsOf,
} from './test-support/report-api';

const ZONES = [SHOP, BLOG];

const scope = (overrides: Partial<ReportScope> = {}): ReportScope => ({
  range: '24h',
  since: '2026-11-28T10:30:00.000Z',
  until: '2026-11-29T10:30:00.000Z',
  bucket: 'hour',
  zone_count: 2,
  zones_read: 2,
  complete: true,
  left_out: [],
  left_out_more: 0,
  cloudflare_queries: 2,
  read_at: '2026-11-29T10:30:00.000Z',
  ...overrides,
});

const security = (overrides: Partial<SecurityReport> = {}): SecurityReport => ({
  scope: scope(),
  total: 1_500,
  over_time: [
    { time: '2026-11-29T08:00:00.000Z', action: 'block', count: 1_000 },
    { time: '2026-11-29T09:00:00.000Z', action: 'block', count: 200 },
    { time: '2026-11-29T09:00:00.000Z', action: 'managed_challenge', count: 300 },
  ],
  by_action: [
    { action: 'block', count: 1_200 },
    { action: 'managed_challenge', count: 300 },
  ],
  by_source: [
    { source: 'firewallCustom', count: 1_200 },
    { source: 'securitylevel', count: 300 },
  ],
  top_source_ips: [
    {
      ip: '198.51.100.77',
      count: 1_000,
      country: 'NL',
      asn: '64500',
      listed_in: [{ account_id: ACCOUNT, list_id: 'list-blocked_ips', list_name: 'blocked_ips' }],
    },
    { ip: '192.0.2.200', count: 500, country: 'US', asn: '64501', listed_in: [] },
  ],
  top_asns: [{ asn: '64500', description: 'Example Transit', count: 1_000 }],
  top_countries: [{ value: 'NL', count: 1_000 }],
  top_hosts: [{ value: 'shop.example', count: 1_500 }],
  top_paths: [{ value: '/wp-login.php', count: 900 }],
  top_rules: [
    {
      zone_id: ZONE,
      rule_id: 'r'.repeat(32),
      source: 'firewallCustom',
      description: 'Block scanners',
      count: 1_200,
    },
  ],
  recent_events: [
    {
      time: '2026-11-29T10:00:00.000Z',
      zone_id: ZONE,
      action: 'block',
      source: 'firewallCustom',
      ip: '192.0.2.200',
      country: 'US',
      asn: '64501',
      host: 'shop.example',
      method: 'GET',
      path: '/wp-login.php',
      rule_id: 'r'.repeat(32),
      description: 'Block scanners',
      ray_id: '8f00000000000001',
      sample_interval: 10,
      sampled: true,
    },
  ],
  recent_events_since: '2026-11-29T04:30:00.000Z',
  ...overrides,
});

const SECURITY = 'GET /api/reports/security';
let api: FakeApi;

beforeEach(() => {
  api = reportApi(ZONES, {
    [SECURITY]: () => jsonResponse(200, security()),
  });
});

describe('Reports > Security', () => {
  it('shows events over time, by action and source, the top tables and the sampled events, each with its numbers', async () => {
    renderApp('/reports/security');
    expect(await screen.findByRole('heading', { name: 'Security', level: 1 })).toBeInTheDocument();
    expect(
      await screen.findByText('Last 24 hours · 2 zones read · read from Cloudflare at', { exact: false }),
    ).toBeInTheDocument();

    // The chart's numbers are a table (hidden until "Show as table", read by screen readers all along).
    const overTime = screen.getByRole('table', { name: 'Events over time by action' });
    const columns = within(overTime)
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    expect(columns).toEqual(['Time', 'Block', 'Managed challenge']);
    // Every hour of the range is a row: one without events is a 0, not a gap.
    const rows = rowsOf(overTime);
    expect(rows.length).toBeGreaterThanOrEqual(24);
    const nonZero = rows.filter((row) => row.slice(1).some((cell) => cell !== '0'));
    expect(nonZero.map((row) => row.slice(1))).toEqual([
      ['1,000', '0'],
      ['200', '300'],
    ]);
    const toggle = screen.getAllByRole('button', { name: 'Show as table' })[0]!;
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Hide table' })).toHaveAttribute('aria-expanded', 'true');

    expect(rowsOf(screen.getByRole('table', { name: 'By action' }))).toEqual([
      ['Block', '1,200'],
      ['Managed challenge', '300'],
    ]);
    expect(rowsOf(screen.getByRole('table', { name: 'By source' }))).toEqual([
      ['Custom rules', '1,200'],
      ['Security level', '300'],
    ]);
    const ips = rowsOf(screen.getByRole('table', { name: 'Top source IPs' }));
    expect(ips[0]).toEqual(['198.51.100.77', 'NL', 'AS64500', 'In blocked_ips', 'Ban everywhere', '1,000']);
    expect(ips[1]).toEqual([
      '192.0.2.200',
      'US',
      'AS64501',
      'In none of your lists',
      'Ban everywhere',
      '500',
    ]);
    expect(rowsOf(screen.getByRole('table', { name: 'Top paths' }))).toEqual([['/wp-login.php', '900']]);
    // A rule by its description, linking to its zone's rules.
    expect(screen.getByRole('link', { name: 'Block scanners' })).toHaveAttribute(
      'href',
      `/cloudflare/zones/${ZONE}/rules`,
    );
    expect(rowsOf(screen.getByRole('table', { name: 'Top rules' }))[0]).toEqual([
      'Block scanners',
      'Custom rules',
      'shop.example',
      '1,200',
    ]);
    // Sampled events say so.
    expect(screen.getByRole('heading', { name: 'Recent events (sampled)' })).toBeInTheDocument();
    const recent = rowsOf(screen.getByRole('table', { name: 'Recent events, sampled by Cloudflare' }));
    expect(recent[0]!.slice(1)).toEqual([
      'Block',
      'Custom rules',
      '192.0.2.200US',
      'shop.example',
      'GET /wp-login.php',
      'Block scanners',
      '10 events',
    ]);
  });

  it('shows a partial report with how far the reading is, and asks again until it is complete', async () => {
    // The server answers what it has read so far while it reads the rest (a report over many zones).
    let asks = 0;
    api.answer(SECURITY, () => {
      asks += 1;
      return asks === 1
        ? jsonResponse(
            200,
            security({
              scope: scope({ zones_read: 1, complete: false, cloudflare_queries: 1 }),
              total: 1_000,
              by_action: [{ action: 'block', count: 1_000 }],
            }),
          )
        : jsonResponse(200, security());
    });
    renderApp('/reports/security');
    const progress = await screen.findByRole('progressbar', { name: 'Zones read from Cloudflare' });
    expect(progress).toHaveAttribute('aria-valuenow', '50');
    expect(progress).toHaveAttribute('aria-valuetext', 'Read 1 of 2 zones…');
    expect(screen.getByText('Read 1 of 2 zones…')).toBeInTheDocument();
    expect(screen.getByText('1 zone read so far', { exact: false })).toBeInTheDocument();
    // The charts show the partial figures meanwhile.
    expect(rowsOf(screen.getByRole('table', { name: 'By action' }))).toEqual([['Block', '1,000']]);

    // Asked again by itself: the whole report replaces it, and the progress line goes.
    await waitFor(
      () =>
        expect(rowsOf(screen.getByRole('table', { name: 'By action' }))).toEqual([
          ['Block', '1,200'],
          ['Managed challenge', '300'],
        ]),
      { timeout: 4_000 },
    );
    expect(screen.queryByRole('progressbar', { name: 'Zones read from Cloudflare' })).not.toBeInTheDocument();
    expect(screen.getByText('2 zones read', { exact: false })).toBeInTheDocument();
    // Complete, it is not asked for again.
    const asked = asks;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(asks).toBe(asked);
  });

  it('keeps the filters in the address and asks the report for them', async () => {
    const user = userEvent.setup();
    const { router } = renderApp(`/reports/security?account=${ACCOUNT}`);
    await screen.findByRole('table', { name: 'By action' });
    expect(api.callsTo(SECURITY)[0]!.params.get('account_id')).toBe(ACCOUNT);
    await user.selectOptions(screen.getByLabelText('Zone'), 'blog.example');
    await user.selectOptions(screen.getByLabelText('Range'), 'Last 7 days');
    await waitFor(() =>
      expect(router.state.location.search).toBe(`?account=${ACCOUNT}&zone=${OTHER_ZONE}&range=7d`),
    );
    await waitFor(() =>
      expect(Object.fromEntries(api.callsTo(SECURITY).at(-1)!.params)).toEqual({
        account_id: ACCOUNT,
        zone_id: OTHER_ZONE,
        range: '7d',
      }),
    );
  });

  it("says an empty range so, names the zones left out, and shows the server's message on a failure", async () => {
    const beyondRetention = "Cloudflare keeps this zone's security events for 3 days on its plan.";
    api.answer(SECURITY, () =>
      jsonResponse(
        200,
        security({
          scope: scope({
            zone_count: 1,
            left_out: [
              ofZone(BLOG, {
                reason: 'range_beyond_retention',
                message: beyondRetention,
              }),
            ],
          }),
          total: 0,
          over_time: [],
          by_action: [],
          by_source: [],
          top_source_ips: [],
          top_asns: [],
          top_countries: [],
          top_hosts: [],
          top_paths: [],
          top_rules: [],
          recent_events: [],
        }),
      ),
    );
    const { unmount } = renderApp('/reports/security?range=7d');
    expect(await screen.findByText('1 zone left out', { exact: false })).toBeInTheDocument();
    expect(
      within(screen.getByRole('list', { name: 'Zones left out' })).getByRole('listitem'),
    ).toHaveTextContent(`blog.example: ${beyondRetention}`);
    expect((await screen.findAllByText('No events in this range')).length).toBeGreaterThanOrEqual(8);
    expect(screen.queryByRole('table', { name: 'Events over time by action' })).not.toBeInTheDocument();
    unmount();

    api.answer(SECURITY, () => errorResponse(400, 'BAD_REQUEST', beyondRetention));
    renderApp(`/reports/security?zone=${OTHER_ZONE}&range=7d`);
    expect(await screen.findByRole('alert')).toHaveTextContent(beyondRetention);
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('offers Ban everywhere for a top attacker, with a comment giving the report, and follows the ban', async () => {
    const JOB = '11111111-1111-4111-8111-111111111111';
    api.answer('GET /api/cloudflare/banlists', () =>
      jsonResponse(200, [
        banListOf(1, 'blocked_ips', {
          account_id: ACCOUNT,
          account_name: 'Acme',
          purpose: 'block',
          purpose_source: 'name',
        }),
      ]),
    );
    api.answer('GET /api/cloudflare/capacity', () => jsonResponse(200, { accounts: [] }));
    api.answer('POST /api/cloudflare/ip-search/ban', () =>
      jsonResponse(202, {
        parts: [
          {
            account_name: 'Acme',
            account_id: ACCOUNT,
            lists: [{ list_id: 'list-blocked_ips', list_name: 'blocked_ips' }],
            job: jobOf({ id: JOB, kind: 'ban-everywhere', account_name: 'Acme', state: 'queued' }),
          },
        ],
      } satisfies IpSearchActionAnswer),
    );
    api.answer(`GET /api/jobs/${JOB}`, () =>
      jsonResponse(
        200,
        jobOf({
          id: JOB,
          kind: 'ban-everywhere',
          account_name: 'Acme',
          state: 'succeeded',
          done: 1,
          total: 1,
          result: { lists: [{ list_id: 'list-blocked_ips', list_name: 'blocked_ips', outcome: 'added' }] },
        }),
      ),
    );
    const user = userEvent.setup();
    renderApp('/reports/security');
    await user.click(await screen.findByRole('button', { name: 'Ban 192.0.2.200 everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ban everywhere' });
    expect(within(dialog).getByLabelText(/Comment/)).toHaveValue(
      'Security report, last 24 hours (all zones): 500 events from 192.0.2.200 (US, AS64501)',
    );
    const list = await within(dialog).findByRole('checkbox', { name: 'blocked_ips' });
    expect(list).toBeChecked();

    // Once banned, the report is read again: the address now shows as listed.
    api.answer(SECURITY, () =>
      jsonResponse(
        200,
        security({
          top_source_ips: security().top_source_ips.map((row) => ({
            ...row,
            listed_in: [{ account_id: ACCOUNT, list_id: 'list-blocked_ips', list_name: 'blocked_ips' }],
          })),
        }),
      ),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Ban in 1 list' }));
    expect(api.sent('POST /api/cloudflare/ip-search/ban')).toEqual([
      {
        value: '192.0.2.200',
        list_ids: ['list-blocked_ips'],
        comment: 'Security report, last 24 hours (all zones): 500 events from 192.0.2.200 (US, AS64501)',
      },
    ]);
    expect(await screen.findByText('Done in every account.')).toBeInTheDocument();
    await waitFor(() =>
      expect(rowsOf(screen.getByRole('table', { name: 'Top source IPs' }))[1]![3]).toBe('In blocked_ips'),
    );
  });
});

describe('Reports > Traffic and Errors', () => {
  it('traffic: totals, requests cached and not over time, bandwidth, and the top tables', async () => {
    const traffic: TrafficReport = {
      scope: scope({ range: '30d', bucket: 'day', since: '2026-10-30T10:30:00.000Z' }),
      totals: { requests: 4_000, cached_requests: 1_000, bytes: 2_500_000, visits: 120 },
      over_time: [
        {
          time: '2026-11-28T00:00:00.000Z',
          requests: 3_000,
          cached_requests: 800,
          bytes: 2_000_000,
          visits: 100,
        },
        {
          time: '2026-11-29T00:00:00.000Z',
          requests: 1_000,
          cached_requests: 200,
          bytes: 500_000,
          visits: 20,
        },
      ],
      by_cache_status: [
        { cache_status: 'dynamic', cached: false, count: 3_000 },
        { cache_status: 'hit', cached: true, count: 1_000 },
      ],
      by_status_class: [{ status_class: '2xx', count: 4_000 }],
      by_zone: [
        ofZone(SHOP, { requests: 3_000, cached_requests: 1_000, bytes: 2_000_000, visits: 90 }),
        ofZone(BLOG, { requests: 1_000, cached_requests: 0, bytes: 500_000, visits: 30 }),
      ],
      by_zone_more: 0,
      top_countries: [{ value: 'TR', count: 4_000 }],
      top_hosts: [{ value: 'shop.example', count: 4_000 }],
      top_paths: [{ value: '/', count: 4_000 }],
    };
    api.answer('GET /api/reports/traffic', () => jsonResponse(200, traffic));
    renderApp('/reports/traffic?range=30d');
    expect(await screen.findByRole('heading', { name: 'Traffic', level: 1 })).toBeInTheDocument();
    const totals = await screen.findByText('Requests', { selector: 'dt' });
    expect(totals.parentElement).toHaveTextContent('4,000');
    expect(screen.getByText('Cached', { selector: 'dt' }).parentElement).toHaveTextContent('25%');
    expect(screen.getByText('Bandwidth', { selector: 'dt' }).parentElement).toHaveTextContent('2.5 MB');
    const requests = rowsOf(screen.getByRole('table', { name: 'Requests over time' }));
    expect(requests).toHaveLength(31);
    expect(requests.slice(-2).map((row) => row.slice(1))).toEqual([
      ['800', '2,200'],
      ['200', '800'],
    ]);
    expect(rowsOf(screen.getByRole('table', { name: 'Bandwidth over time' })).at(-1)![1]).toBe('500.0 KB');
    expect(rowsOf(screen.getByRole('table', { name: 'By cache status' }))).toEqual([
      ['dynamic', 'No', '3,000'],
      ['hit', 'Yes', '1,000'],
    ]);
    // By zone: each zone by its name, never its id.
    expect(rowsOf(screen.getByRole('table', { name: 'By zone' }))).toEqual([
      ['shop.example', '33.3%', '2.0 MB', '90', '3,000'],
      ['blog.example', '0%', '500.0 KB', '30', '1,000'],
    ]);
    expect(api.callsTo('GET /api/reports/traffic')[0]!.params.get('range')).toBe('30d');
  });

  it('errors: 4xx and 5xx over time, by status, edge against origin', async () => {
    const errors: ErrorsReport = {
      scope: scope(),
      totals: {
        requests: 10_000,
        client_errors: 400,
        server_errors: 100,
        origin_errors: 70,
        edge_errors: 30,
      },
      over_time: [{ time: '2026-11-29T09:00:00.000Z', client_errors: 400, server_errors: 100 }],
      by_status: [
        { status: 404, count: 400 },
        { status: 502, count: 100 },
      ],
      by_zone: [
        ofZone(BLOG, {
          requests: 4_000,
          client_errors: 350,
          server_errors: 100,
          origin_errors: 70,
          edge_errors: 30,
        }),
        ofZone(SHOP, {
          requests: 6_000,
          client_errors: 50,
          server_errors: 0,
          origin_errors: 0,
          edge_errors: 0,
        }),
      ],
      by_zone_more: 3,
      top_paths: [{ value: '/missing', count: 400 }],
      top_hosts: [{ value: 'shop.example', count: 500 }],
    };
    api.answer('GET /api/reports/errors', () => jsonResponse(200, errors));
    renderApp('/reports/errors');
    expect(await screen.findByRole('heading', { name: 'Errors', level: 1 })).toBeInTheDocument();
    const overTime = rowsOf(await screen.findByRole('table', { name: 'Errors over time' }));
    expect(overTime.filter((row) => row[1] !== '0').map((row) => row.slice(1))).toEqual([['400', '100']]);
    expect(rowsOf(screen.getByRole('table', { name: 'By status' }))).toEqual([
      ['404', '400'],
      ['502', '100'],
    ]);
    expect(rowsOf(screen.getByRole('table', { name: 'Edge or origin' }))).toEqual([
      ['Origin', '70'],
      ['Edge', '30'],
    ]);
    expect(screen.getByText('4xx', { selector: 'dt' }).parentElement).toHaveTextContent('400 (4%)');
    expect(rowsOf(screen.getByRole('table', { name: 'By zone' }))).toEqual([
      ['blog.example', '350', '100', '4,000', '450'],
      ['shop.example', '50', '0', '6,000', '50'],
    ]);
    expect(screen.getByText('The 2 zones with the most; 3 more not shown')).toBeInTheDocument();
  });
});
