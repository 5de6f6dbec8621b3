import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Server, ServerHourly } from '@guardian/contract';
import { formatBucket } from '../../components/charts/format';
import { setToken } from '../../lib/auth-token';
import { fakeApi, type FakeApi } from '../../test/fake-api';
import { errorResponse, jsonResponse, renderApp } from '../../test/render-app';
import { sessionToken } from '../../test/token';

const server = (id: number, name: string): Server => ({
  id,
  name,
  group_id: 1,
  group_name: 'Web hosts',
  integration: 'fail2ban',
  version: 'fail2ban 1.0.2 / guardian 2',
  expected_interval_minutes: 60,
  key_last_four: 'abcd',
  state: 'active',
  last_seen_at: '2026-11-29T10:10:00.000Z',
  created_at: '2026-11-28T10:00:00.000Z',
  revoked_at: null,
  bans: { day: 8, week: 12 },
  unbans: { day: 2, week: 2 },
  refused: { day: 1, week: 1 },
  last_refusal: null,
  in_review: 0,
  has_signing_secret: false,
});

const HOURS = Array.from({ length: 24 }, (_, i) => new Date(Date.UTC(2026, 10, 28, 11 + i)).toISOString());
const at = (values: Record<number, number>) => Array.from({ length: 24 }, (_, i) => values[i] ?? 0);
const HOURLY: ServerHourly = {
  hours: HOURS,
  servers: [
    { server_id: 7, bans: at({ 0: 1, 18: 3, 23: 4 }), unbans: at({ 18: 2 }), refused: at({ 23: 1 }) },
    { server_id: 9, bans: at({}), unbans: at({}), refused: at({}) },
  ],
};
const HOURLY_KEY = 'GET /api/servers/hourly';
let api: FakeApi;

beforeEach(() => {
  setToken(sessionToken({ level: 1 }));
  api = fakeApi({
    'GET /api/servers': () => jsonResponse(200, [server(7, 'web-1'), server(9, 'web-2')]),
    'GET /api/servers/reviews': () => jsonResponse(200, { reviews: [], total: 0 }),
    [HOURLY_KEY]: () => jsonResponse(200, HOURLY),
  });
});

describe('Servers > Server List: the last 24 hours', () => {
  it("draws each server's hours and gives their numbers as a table, in the person's time zone", async () => {
    renderApp('/servers/list');
    const chart = await screen.findByRole('img', {
      name: 'web-1, last 24 hours: bans 8, unbans 2, refused 1',
    });
    // A stacked bar an hour: a part for each series that counted something (5 here).
    expect(chart.querySelectorAll('rect')).toHaveLength(5);
    expect(
      screen.getByRole('img', { name: 'web-2, last 24 hours: bans 0, unbans 0, refused 0' }),
    ).toBeVisible();
    // One request for the page's servers.
    expect(api.callsTo(HOURLY_KEY).map((call) => call.params.get('server_ids'))).toEqual(['7,9']);

    const show = screen.getByRole('button', { name: 'Show web-1, last 24 hours as table' });
    expect(screen.queryByRole('table', { name: /web-1, last 24 hours/ })).not.toBeInTheDocument();
    await userEvent.click(show);
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const dialog = screen.getByRole('dialog', { name: 'web-1, last 24 hours' });
    expect(dialog).toHaveTextContent(`Per hour, times in ${zone}.`);
    const table = within(dialog).getByRole('table', { name: `web-1, last 24 hours (times in ${zone})` });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [
        within(row).getByRole('rowheader').textContent,
        ...within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ]);
    expect(rows).toHaveLength(24);
    expect(rows.filter((row) => row.slice(1).some((cell) => cell !== '0'))).toEqual([
      [formatBucket(HOURS[0]!, 'hour'), '1', '0', '0'],
      [formatBucket(HOURS[18]!, 'hour'), '3', '2', '0'],
      [formatBucket(HOURS[23]!, 'hour'), '4', '0', '1'],
    ]);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(show).toHaveFocus();
  });

  it('still lists the servers when the hours cannot be read, and says the chart is not there', async () => {
    api.answer(HOURLY_KEY, () => errorResponse(500, 'INTERNAL', 'Something went wrong.'));
    renderApp('/servers/list');
    expect(await screen.findByText('web-1')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByText('Chart not available')).toHaveLength(2));
    expect(screen.queryByRole('img', { name: /last 24 hours/ })).not.toBeInTheDocument();
  });
});
