import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Alert, AlertsPage } from '@guardian/contract';
import { setToken } from '../../lib/auth-token';
import { fakeApi } from '../../test/fake-api';
import { jsonResponse, renderApp } from '../../test/render-app';
import { sessionToken } from '../../test/token';

const refused: Alert = {
  id: 7,
  kind: 'ban-refused',
  severity: 'warning',
  state: 'open',
  title: '198.51.100.9 was not added to blocked (account Acme): Cloudflare refused it: full',
  subject: { type: 'list', id: 'list123', name: 'blocked' },
  count: 3,
  first_seen_at: '2026-11-28T10:00:00.000Z',
  last_seen_at: '2026-11-29T10:00:00.000Z',
  acknowledged_at: null,
  resolved_at: null,
};

beforeEach(() => {
  setToken(sessionToken({ level: 1 }));
});

describe('the alerts page', () => {
  it('lists open alerts with their count and subject link, and acknowledges one', async () => {
    const user = userEvent.setup();
    let alert = refused;
    const api = fakeApi({
      'GET /api/alerts': () => jsonResponse(200, { alerts: [alert], next_cursor: null } satisfies AlertsPage),
      'POST /api/alerts/7/acknowledge': () => {
        alert = { ...alert, state: 'acknowledged', acknowledged_at: '2026-11-29T10:05:00.000Z' };
        return jsonResponse(200, alert);
      },
    });
    renderApp('/dashboard/alerts');
    const row = await screen.findByRole('listitem', { name: refused.title });
    expect(within(row).getByText('Warning')).toBeVisible();
    expect(within(row).getByText('Open')).toBeVisible();
    expect(row).toHaveTextContent('3 times');
    expect(within(row).getByRole('link', { name: 'List blocked' })).toHaveAttribute(
      'href',
      '/cloudflare/banlists/list123/items',
    );
    expect(api.callsTo('GET /api/alerts')[0]?.params.get('state')).toBe('active');

    await user.click(within(row).getByRole('button', { name: `Acknowledge: ${refused.title}` }));
    expect(await screen.findByText('Alert acknowledged.')).toBeVisible();
    await waitFor(() => expect(within(row).getByText('Acknowledged')).toBeVisible());
    expect(within(row).queryByRole('button', { name: /^Acknowledge/ })).toBeNull();
    expect(within(row).getByRole('button', { name: `Resolve: ${refused.title}` })).toBeEnabled();
  });

  it('asks the server for the chosen filters and says when nothing matches', async () => {
    const user = userEvent.setup();
    const api = fakeApi({
      'GET /api/alerts': () => jsonResponse(200, { alerts: [], next_cursor: null } satisfies AlertsPage),
    });
    renderApp('/dashboard/alerts');
    expect(await screen.findByText('No open alerts: nothing needs your attention.')).toBeVisible();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), 'A job failed');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Severity' }), 'Critical');
    await user.selectOptions(screen.getByRole('combobox', { name: 'State' }), 'Resolved by itself');
    expect(await screen.findByText('No alerts match these filters.')).toBeVisible();
    const last = api.callsTo('GET /api/alerts').at(-1)!;
    expect(Object.fromEntries(last.params)).toMatchObject({
      kind: 'job-failed',
      severity: 'critical',
      state: 'cleared',
    });
  });

  it("opens on the kind an alert e-mail's link names", async () => {
    const api = fakeApi({
      'GET /api/alerts': () => jsonResponse(200, { alerts: [], next_cursor: null } satisfies AlertsPage),
    });
    renderApp('/dashboard/alerts?kind=api-key-created');
    expect(await screen.findByText('No alerts match these filters.')).toBeVisible();
    expect(screen.getByRole('combobox', { name: 'Kind' })).toHaveValue('api-key-created');
    expect(api.callsTo('GET /api/alerts')[0]?.params.get('kind')).toBe('api-key-created');
  });

  it('opens on every kind when the link names no kind it knows', async () => {
    const api = fakeApi({
      'GET /api/alerts': () => jsonResponse(200, { alerts: [], next_cursor: null } satisfies AlertsPage),
    });
    renderApp('/dashboard/alerts?kind=no-such-kind');
    expect(await screen.findByText('No open alerts: nothing needs your attention.')).toBeVisible();
    expect(api.callsTo('GET /api/alerts')[0]?.params.get('kind')).toBeNull();
  });
});
