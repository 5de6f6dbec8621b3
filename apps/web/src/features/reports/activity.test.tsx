import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ActivityLink, ActivityReport } from '@guardian/contract';
import { setToken } from '../../lib/auth-token';
import type { FakeApi } from '../../test/fake-api';
import { errorResponse, jsonResponse, renderApp } from '../../test/render-app';
import { sessionToken } from '../../test/token';
import { zonedBucketTimes } from './lib/zoned-buckets';
import {
  REPORT_ACCOUNT as ACCOUNT,
  REPORT_SINCE as SINCE,
  REPORT_UNTIL as UNTIL,
  SHOP_ZONE,
  reportApi,
  rowsOf,
} from './test-support/report-api';

const ZONES = [SHOP_ZONE];

const link = (
  filters: Partial<ActivityLink['filters']> = {},
  path: ActivityLink['path'] = '/dashboard/activity',
) => ({
  path,
  filters: { from: SINCE, to: UNTIL, ...filters },
});

const activity = (overrides: Partial<ActivityReport> = {}): ActivityReport => ({
  range: '24h',
  scope: 'mine',
  since: SINCE,
  until: UNTIL,
  bucket: 'hour',
  tz: 'UTC',
  totals: { success: 7, refused: 2, failed: 1 },
  over_time: [
    { time: '2026-11-29T08:00:00.000Z', kind: 'banListItems', success: 5, refused: 1, failed: 0 },
    { time: '2026-11-29T09:00:00.000Z', kind: 'banListItems', success: 1, refused: 0, failed: 0 },
    { time: '2026-11-29T09:00:00.000Z', kind: 'dnsRecords', success: 1, refused: 1, failed: 1 },
  ],
  by_kind: [
    {
      kind: 'banListItems',
      label: 'Ban list items',
      success: 6,
      refused: 1,
      failed: 0,
      link: link({ action: 'banListItems.' }),
    },
    {
      kind: 'dnsRecords',
      label: 'DNS records',
      success: 1,
      refused: 1,
      failed: 1,
      link: link({ action: 'dnsRecords.' }),
    },
  ],
  by_person: [{ user_id: 2, email: 'user@guardian.local', success: 7, refused: 2, failed: 1, link: link() }],
  by_person_more: 0,
  link: link(),
  read_at: UNTIL,
  ...overrides,
});

const ACTIVITY = 'GET /api/reports/activity';
let api: FakeApi;

beforeEach(() => {
  api = reportApi(ZONES, {
    [ACTIVITY]: () => jsonResponse(200, activity()),
    'GET /api/audit': () => jsonResponse(200, { events: [], next_cursor: null }),
  });
});

const search = (href: string | null) => Object.fromEntries(new URL(href!, 'http://x').searchParams);

describe('Reports > Activity', () => {
  it("charts the person's changes by kind, outcome and person, in their time zone, each with its numbers", async () => {
    renderApp('/reports/activity');
    expect(await screen.findByRole('heading', { name: 'Activity', level: 1 })).toBeInTheDocument();
    expect(
      await screen.findByText('Last 24 hours · your changes · per hour in UTC', { exact: false }),
    ).toBeInTheDocument();
    // Asked in the browser's time zone, for the person's own changes.
    expect(Object.fromEntries(api.callsTo(ACTIVITY)[0]!.params)).toEqual({
      range: '24h',
      scope: 'mine',
      tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    expect(screen.getByText('Changes', { selector: 'dt' }).parentElement).toHaveTextContent('10');
    expect(screen.getByText('Refused', { selector: 'dt' }).parentElement).toHaveTextContent('2');

    const byKind = screen.getByRole('table', { name: 'Changes over time by kind' });
    expect(
      within(byKind)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Time', 'Ban list items', 'DNS records']);
    const rows = rowsOf(byKind);
    // Every hour of the range is a row (a quiet hour is a 0).
    expect(rows.length).toBeGreaterThanOrEqual(24);
    expect(
      rows.filter((row) => row.slice(1).some((cell) => cell !== '0')).map((row) => row.slice(1)),
    ).toEqual([
      ['6', '0'],
      ['1', '3'],
    ]);
    const outcomes = rowsOf(screen.getByRole('table', { name: 'Done, refused and failed over time' }));
    expect(
      outcomes.filter((row) => row.slice(1).some((cell) => cell !== '0')).map((row) => row.slice(1)),
    ).toEqual([
      ['5', '1', '0'],
      ['2', '1', '1'],
    ]);
    expect(rowsOf(screen.getByRole('table', { name: 'By kind' }))).toEqual([
      ['Ban list items', '6', '1', '0', '7'],
      ['DNS records', '1', '1', '1', '3'],
    ]);
    expect(rowsOf(screen.getByRole('table', { name: 'Done or refused' }))).toEqual([
      ['Done', '7'],
      ['Refused', '2'],
      ['Failed', '1'],
    ]);
    expect(rowsOf(screen.getByRole('table', { name: 'By person' }))).toEqual([
      ['user@guardian.local', '7', '2', '1', '10'],
    ]);
  });

  it('links each row and hour to the Activity table with the same filters, and the table asks for them', async () => {
    const user = userEvent.setup();
    const { router } = renderApp(`/reports/activity?account=${ACCOUNT}`);
    const kinds = await screen.findByRole('table', { name: 'By kind' });
    expect(api.callsTo(ACTIVITY)[0]!.params.get('account_id')).toBe(ACCOUNT);
    const dns = within(kinds).getByRole('link', { name: 'DNS records' });
    expect(dns.getAttribute('href')!.startsWith('/dashboard/activity?')).toBe(true);
    expect(search(dns.getAttribute('href'))).toEqual({ from: SINCE, to: UNTIL, action: 'dnsRecords.' });
    const refused = within(screen.getByRole('table', { name: 'Done or refused' })).getByRole('link', {
      name: 'Refused',
    });
    expect(search(refused.getAttribute('href'))).toEqual({ from: SINCE, to: UNTIL, outcome: 'refused' });
    // An hour of the chart's table: that hour's changes.
    const hour = within(screen.getByRole('table', { name: 'Changes over time by kind' }))
      .getAllByRole('link')
      .find((a) => a.querySelector('time')?.getAttribute('datetime') === '2026-11-29T09:00:00.000Z');
    expect(search(hour!.getAttribute('href'))).toEqual({
      from: '2026-11-29T09:00:00.000Z',
      to: '2026-11-29T10:00:00.000Z',
    });

    await user.click(dns);
    expect(await screen.findByRole('heading', { name: 'Activity', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard/activity');
    await waitFor(() =>
      expect(Object.fromEntries(api.callsTo('GET /api/audit').at(-1)!.params)).toEqual({
        action: 'dnsRecords.',
        from: SINCE,
        to: UNTIL,
        limit: '50',
      }),
    );
    expect(screen.getByLabelText('Kind')).toHaveValue('dnsRecords.');
    expect(screen.getByText(/as the Activity report counted them/)).toBeInTheDocument();
  });

  it("offers administrators everyone's changes, each person linking to the administrators' table", async () => {
    setToken(sessionToken({ level: 0 }));
    api.answer(ACTIVITY, (call) =>
      jsonResponse(
        200,
        call.params.get('scope') === 'everyone'
          ? activity({
              scope: 'everyone',
              link: link({}, '/admin/activity'),
              by_person: [
                {
                  user_id: 3,
                  email: 'ada@example.com',
                  success: 4,
                  refused: 0,
                  failed: 0,
                  link: link({ actor: 'ada@example.com' }, '/admin/activity'),
                },
                { user_id: null, email: null, success: 0, refused: 3, failed: 0, link: null },
              ],
              by_person_more: 2,
            })
          : activity(),
      ),
    );
    const user = userEvent.setup();
    const { router } = renderApp('/reports/activity');
    await screen.findByRole('table', { name: 'By person' });
    await user.selectOptions(screen.getByLabelText('Whose changes'), "Everyone's");
    await waitFor(() => expect(router.state.location.search).toBe('?scope=everyone'));
    expect(await screen.findByText(/everyone's changes/)).toBeInTheDocument();
    expect(api.callsTo(ACTIVITY).at(-1)!.params.get('scope')).toBe('everyone');
    const people = screen.getByRole('table', { name: 'By person' });
    expect(rowsOf(people)).toEqual([
      ['ada@example.com', '4', '0', '0', '4'],
      ['Sign-ins with unknown e-mails', '0', '3', '0', '3'],
    ]);
    expect(screen.getByText('The most active; 2 more people not shown')).toBeInTheDocument();
    const ada = within(people).getByRole('link', { name: 'ada@example.com' });
    expect(ada.getAttribute('href')!.startsWith('/admin/activity?')).toBe(true);
    expect(search(ada.getAttribute('href')).actor).toBe('ada@example.com');
  });

  it('keeps a person who is not an administrator to their own changes whatever the address says', async () => {
    renderApp('/reports/activity?scope=everyone&range=7d');
    await screen.findByRole('table', { name: 'By kind' });
    expect(screen.queryByLabelText('Whose changes')).not.toBeInTheDocument();
    expect(api.callsTo(ACTIVITY)[0]!.params.get('scope')).toBe('mine');
    expect(api.callsTo(ACTIVITY)[0]!.params.get('range')).toBe('7d');
  });

  it("says an empty range so, and shows the server's message with Retry on a failure", async () => {
    api.answer(ACTIVITY, () =>
      jsonResponse(
        200,
        activity({
          totals: { success: 0, refused: 0, failed: 0 },
          over_time: [],
          by_kind: [],
          by_person: [],
        }),
      ),
    );
    const { unmount } = renderApp('/reports/activity');
    expect((await screen.findAllByText('No changes in this range')).length).toBe(5);
    expect(screen.queryByRole('table', { name: 'Changes over time by kind' })).not.toBeInTheDocument();
    unmount();

    api.answer(ACTIVITY, () => errorResponse(404, 'NOT_FOUND', 'Account not found.'));
    const user = userEvent.setup();
    renderApp(`/reports/activity?account=${ACCOUNT}`);
    expect(await screen.findByRole('alert')).toHaveTextContent('Account not found.');
    api.answer(ACTIVITY, () => jsonResponse(200, activity()));
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: 'By kind' })).toBeInTheDocument();
  });
});

describe('zonedBucketTimes', () => {
  it("starts each day at the zone's midnight, across a change of the clocks", () => {
    // New York leaves summer time on 2026-11-01: that day is 25 hours long.
    expect(
      zonedBucketTimes(
        { since: '2026-10-31T12:00:00.000Z', until: '2026-11-02T12:00:00.000Z', bucket: 'day' },
        'America/New_York',
      ),
    ).toEqual(['2026-10-31T04:00:00.000Z', '2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z']);
    // Istanbul is 3 hours ahead all year.
    expect(
      zonedBucketTimes(
        { since: '2026-11-28T22:30:00.000Z', until: '2026-11-29T01:10:00.000Z', bucket: 'hour' },
        'Europe/Istanbul',
      ),
    ).toEqual([
      '2026-11-28T22:00:00.000Z',
      '2026-11-28T23:00:00.000Z',
      '2026-11-29T00:00:00.000Z',
      '2026-11-29T01:00:00.000Z',
    ]);
    // India is 5.5 hours ahead: its hours start at half past in UTC; a time the answer has is kept.
    expect(
      zonedBucketTimes(
        { since: '2026-11-29T10:00:00.000Z', until: '2026-11-29T11:40:00.000Z', bucket: 'hour' },
        'Asia/Kolkata',
        ['2026-11-29T11:30:00.000Z', '2026-11-29T12:30:00.000Z'],
      ),
    ).toEqual([
      '2026-11-29T09:30:00.000Z',
      '2026-11-29T10:30:00.000Z',
      '2026-11-29T11:30:00.000Z',
      '2026-11-29T12:30:00.000Z',
    ]);
  });
});
