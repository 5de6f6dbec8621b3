import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PerformanceReport, ReportScope } from '@guardian/contract';
import type { FakeApi } from '../../test/fake-api';
import { errorResponse, jsonResponse, renderApp } from '../../test/render-app';
import {
  REPORT_ACCOUNT as ACCOUNT,
  REPORT_SINCE as SINCE,
  REPORT_UNTIL as UNTIL,
  REPORT_ZONE as ZONE,
  SHOP_ZONE as SHOP,
  ofZone,
  reportApi,
  rowsOf,
} from './test-support/report-api';

const ZONES = [SHOP];

const scope: ReportScope = {
  range: '24h',
  since: SINCE,
  until: UNTIL,
  bucket: 'hour',
  zone_count: 1,
  zones_read: 1,
  complete: true,
  left_out: [],
  left_out_more: 0,
  cloudflare_queries: 1,
  read_at: UNTIL,
};

const latency = (avg: number | null, p50: number | null, p95: number | null, p99: number | null) => ({
  avg,
  p50,
  p95,
  p99,
});

const performance = (overrides: Partial<PerformanceReport> = {}): PerformanceReport => ({
  range: '24h',
  since: SINCE,
  until: UNTIL,
  bucket: 'hour',
  zones: {
    scope,
    totals: {
      requests: 4_000,
      cached_requests: 1_000,
      edge_ttfb_ms: latency(40, 30, 120, 300),
      origin_ms: latency(180, 150, 420, 900),
    },
    over_time: [
      {
        time: '2026-11-29T08:00:00.000Z',
        requests: 3_000,
        cached_requests: 600,
        edge_ttfb_ms: latency(45, 32, 130, 310),
        origin_ms: latency(190, 160, 430, 910),
      },
      {
        time: '2026-11-29T09:00:00.000Z',
        requests: 1_000,
        cached_requests: 400,
        edge_ttfb_ms: latency(25, 20, 90, 200),
        origin_ms: latency(null, null, null, null),
      },
    ],
    by_zone: [
      ofZone(SHOP, {
        requests: 4_000,
        cached_requests: 1_000,
        edge_ttfb_ms: latency(40, 30, 120, 300),
        origin_ms: latency(180, 150, 420, 900),
      }),
    ],
    percentiles_estimated: true,
  },
  zones_unavailable: null,
  jobs: {
    totals: { succeeded: 5, failed: 2, cancelled: 1 },
    over_time: [{ time: '2026-11-29T09:00:00.000Z', succeeded: 5, failed: 2, cancelled: 1 }],
    by_kind: [
      { kind: 'ban-everywhere', label: 'Ban everywhere', succeeded: 4, failed: 1, cancelled: 0 },
      { kind: 'import', label: 'Import', succeeded: 1, failed: 1, cancelled: 1 },
    ],
  },
  budgets: [
    {
      account_id: ACCOUNT,
      account_name: 'Acme',
      rest: { used: 120, limit: 1_200, window_seconds: 300 },
      analytics: { used: 280, limit: 300, window_seconds: 300 },
      held_until: null,
    },
  ],
  budgets_more: 0,
  read_at: UNTIL,
  ...overrides,
});

const PERFORMANCE = 'GET /api/reports/performance';
let api: FakeApi;

beforeEach(() => {
  api = reportApi(ZONES, {
    [PERFORMANCE]: () => jsonResponse(200, performance()),
  });
});

/** The rows of a series table that have a value (not every cell "—"). */
const filled = (rows: (string | undefined)[][]) =>
  rows.filter((row) => row.slice(1).some((cell) => cell !== '—'));

describe('Dashboard > Performance', () => {
  it("charts the zones' response times and cached share, and Guardian's jobs and token budgets, with their numbers", async () => {
    renderApp('/dashboard/performance');
    expect(await screen.findByRole('heading', { name: 'Performance', level: 1 })).toBeInTheDocument();
    const zones = await screen.findByRole('region', { name: 'Your zones' });
    expect(within(zones).getByText('Last 24 hours · 1 zone read', { exact: false })).toBeInTheDocument();
    expect(within(zones).getByText('Cached', { selector: 'dt' }).parentElement).toHaveTextContent('25%');
    expect(within(zones).getByText('Edge p95', { selector: 'dt' }).parentElement).toHaveTextContent('120 ms');
    expect(within(zones).getByText('Origin p95', { selector: 'dt' }).parentElement).toHaveTextContent(
      '420 ms',
    );

    const edge = screen.getByRole('table', { name: 'Edge time to first byte' });
    expect(
      within(edge)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Time', 'Mean', 'p50', 'p95', 'p99']);
    // An hour without requests has no time: a gap, not a 0.
    const edgeRows = rowsOf(edge);
    expect(edgeRows.length).toBeGreaterThanOrEqual(24);
    expect(filled(edgeRows).map((row) => row.slice(1))).toEqual([
      ['45 ms', '32 ms', '130 ms', '310 ms'],
      ['25 ms', '20 ms', '90 ms', '200 ms'],
    ]);
    expect(
      filled(rowsOf(screen.getByRole('table', { name: 'Origin response time' }))).map((row) => row.slice(1)),
    ).toEqual([['190 ms', '160 ms', '430 ms', '910 ms']]);
    // Percentiles merged over zones or windows are said to be estimates.
    expect(screen.getAllByText(/Percentiles over several zones or hours are estimates/)).toHaveLength(2);
    expect(
      filled(rowsOf(screen.getByRole('table', { name: 'Cached share over time' }))).map((row) => row[1]),
    ).toEqual(['20%', '40%']);
    expect(rowsOf(screen.getByRole('table', { name: 'Busiest zones' }))).toEqual([
      ['shop.example', '25%', '120 ms', '420 ms', '4,000'],
    ]);

    const guardian = screen.getByRole('region', { name: 'Guardian' });
    expect(within(guardian).getByText('Jobs failed', { selector: 'dt' }).parentElement).toHaveTextContent(
      '2',
    );
    const jobs = rowsOf(screen.getByRole('table', { name: 'Jobs over time' }));
    expect(
      jobs.filter((row) => row.slice(1).some((cell) => cell !== '0')).map((row) => row.slice(1)),
    ).toEqual([['5', '2', '1']]);
    expect(rowsOf(screen.getByRole('table', { name: 'Jobs by kind' }))).toEqual([
      ['Ban everywhere', '4', '1', '0', '5'],
      ['Import', '1', '1', '1', '3'],
    ]);
    expect(rowsOf(screen.getByRole('table', { name: 'Request budgets per token' }))).toEqual([
      ['Acme', '120 of 1,200 per 5 minutes', '280 of 300 per 5 minutes', 'No'],
    ]);
  });

  it("says why the zones' part is missing and still shows Guardian's", async () => {
    api.answer(PERFORMANCE, () =>
      jsonResponse(
        200,
        performance({
          zones: null,
          zones_unavailable: "Cloudflare's request analytics are not on this zone's plan.",
          budgets: [
            {
              account_id: ACCOUNT,
              account_name: 'Acme',
              rest: { used: 1_200, limit: 1_200, window_seconds: 300 },
              analytics: { used: 0, limit: 300, window_seconds: 300 },
              held_until: '2026-11-29T10:35:00.000Z',
            },
          ],
          budgets_more: 3,
        }),
      ),
    );
    renderApp('/dashboard/performance');
    const zones = await screen.findByRole('region', { name: 'Your zones' });
    expect(within(zones).getByRole('status')).toHaveTextContent(
      "Cloudflare's request analytics are not on this zone's plan.",
    );
    expect(screen.queryByRole('table', { name: 'Edge time to first byte' })).not.toBeInTheDocument();
    const budgets = rowsOf(screen.getByRole('table', { name: 'Request budgets per token' }));
    expect(budgets[0]![3]).toMatch(/^Until /);
    expect(screen.getByText(/3 more accounts not shown/)).toBeInTheDocument();
  });

  it('keeps the filters in the address, asks for them, and shows a failure with Retry', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard/performance');
    await screen.findByRole('table', { name: 'Busiest zones' });
    await user.selectOptions(screen.getByLabelText('Zone'), 'shop.example');
    await user.selectOptions(screen.getByLabelText('Range'), 'Last 30 days');
    await waitFor(() => expect(router.state.location.search).toBe(`?zone=${ZONE}&range=30d`));
    await waitFor(() =>
      expect(Object.fromEntries(api.callsTo(PERFORMANCE).at(-1)!.params)).toEqual({
        zone_id: ZONE,
        range: '30d',
      }),
    );

    const beyondRetention = "Cloudflare keeps this zone's request analytics for 7 days on its plan.";
    api.answer(PERFORMANCE, () => errorResponse(400, 'BAD_REQUEST', beyondRetention));
    renderApp(`/dashboard/performance?zone=${ZONE}&range=7d`);
    expect(await screen.findByRole('alert')).toHaveTextContent(beyondRetention);
    api.answer(PERFORMANCE, () => jsonResponse(200, performance()));
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findAllByRole('table', { name: 'Busiest zones' })).not.toHaveLength(0);
  });
});
