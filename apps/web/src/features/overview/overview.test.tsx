import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { OverviewReport } from '@guardian/contract';
import { setToken } from '../../lib/auth-token';
import { fakeApi, type FakeApi } from '../../test/fake-api';
import { errorResponse, jsonResponse, renderApp } from '../../test/render-app';
import { sessionToken } from '../../test/token';

const OVERVIEW: OverviewReport = {
  active_servers: {
    value: null,
    unit: 'count',
    detail: 'Servers that reported in the last 24 hours',
    unavailable: 'Server Management is not set up yet: servers show here once they report in.',
  },
  security_alerts: {
    value: 3,
    unit: 'count',
    detail: 'Of the 20 top attacking addresses of the last 24 hours, in none of your lists',
    unavailable: null,
  },
  blocked_threats: {
    value: 31_415,
    unit: 'count',
    detail: 'Blocked or challenged in the last 24 hours on 3 zones',
    unavailable: null,
  },
  system_health: {
    value: 66.7,
    unit: 'percent',
    detail: "2 of 3 of Guardian's checks pass",
    unavailable: null,
    checks: [
      { name: 'Account API tokens valid', passed: true, detail: '1 of 1 account API token valid' },
      { name: 'Cloudflare reachable', passed: true, detail: "Cloudflare's analytics answered." },
      { name: 'Jobs succeeding', passed: false, detail: '3 of 4 jobs of the last 24 hours succeeded' },
    ],
  },
  read_at: '2026-11-29T10:30:00.000Z',
};

let api: FakeApi;
beforeEach(() => {
  setToken(sessionToken({ level: 1 }));
  api = fakeApi({ 'GET /api/reports/overview': () => jsonResponse(200, OVERVIEW) });
});

const tile = (label: string) => screen.getByText(label, { selector: 'dt' }).closest('dl')!;

describe('Overview (Genel Durum)', () => {
  it('shows the four tiles live, a tile without a source saying why and never a number', async () => {
    renderApp('/dashboard/overview');
    expect(await screen.findByRole('heading', { name: 'Genel Durum' })).toBeInTheDocument();
    expect(await screen.findByText('31,415')).toBeInTheDocument();
    expect(tile('Active Servers')).toHaveTextContent(
      'Active ServersServer Management is not set up yet: servers show here once they report in.',
    );
    expect(within(tile('Active Servers')).queryByText(/^\d/)).not.toBeInTheDocument();
    expect(tile('Security Alerts')).toHaveTextContent('3');
    expect(tile('Blocked Threats')).toHaveTextContent(
      '31,415Blocked or challenged in the last 24 hours on 3 zones',
    );
    expect(tile('System Health')).toHaveTextContent("66.7%2 of 3 of Guardian's checks pass");
    expect(screen.getByText('Jobs succeeding').parentElement).toHaveTextContent(
      'FailingJobs succeeding3 of 4 jobs of the last 24 hours succeeded',
    );
    // None of the spec's sample figures.
    expect(screen.queryByText('1,287')).not.toBeInTheDocument();
    expect(screen.queryByText('99.8%')).not.toBeInTheDocument();
    expect(api.callsTo('GET /api/reports/overview')).toHaveLength(1);
  });

  it('says a failed read so, with Retry, and shows no figure', async () => {
    api.answer('GET /api/reports/overview', () =>
      errorResponse(502, 'CLOUDFLARE_ERROR', 'Cloudflare is unavailable. Try again in a minute.'),
    );
    renderApp('/dashboard/overview');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Cloudflare is unavailable. Try again in a minute.',
    );
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(tile('Blocked Threats')).toHaveTextContent('Blocked ThreatsNot read');
  });
});

describe('Your plan, on the overview', () => {
  it('shows each limit with its use ("Cloudflare accounts 1 of 2"), full ones marked', async () => {
    api.answer('GET /api/me/plan', () =>
      jsonResponse(200, {
        name: 'Starter',
        report_range: '24h',
        use: [
          { limit: 'accounts', allowed: 2, used: 1 },
          { limit: 'zones', allowed: 3, used: 3 },
          { limit: 'list_items', allowed: 1000, used: 900 },
        ],
      }),
    );
    renderApp('/dashboard/overview');
    const plan = await screen.findByRole('region', { name: 'Your plan: Starter' });
    const accounts = within(plan).getByRole('meter', { name: 'Cloudflare accounts' });
    expect(accounts).toHaveAttribute('aria-valuetext', '1 of 2');
    expect(within(plan).getByText('1 of 2')).toBeInTheDocument();
    expect(within(plan).getByRole('meter', { name: 'Zones' }).firstElementChild).toHaveClass('bg-danger');
    expect(within(plan).getByRole('meter', { name: 'List items' }).firstElementChild).toHaveClass(
      'bg-warning',
    );
    expect(within(plan).getByText('900 of 1,000')).toBeInTheDocument();
    expect(plan).toHaveTextContent('Reports reach back 24 hours.');
  });
});
