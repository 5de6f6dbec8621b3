import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { OwnSession } from '@guardian/contract';
import { getToken, setToken } from '../../lib/auth-token';
import { fakeApi, type FakeApi } from '../../test/fake-api';
import { jsonResponse, renderApp } from '../../test/render-app';
import { sessionToken } from '../../test/token';

let api: FakeApi;

const THIS = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const newest: OwnSession = {
  id: OTHER,
  created_at: '2026-11-21T09:30:00.000Z',
  expires_at: '2026-11-22T09:30:00.000Z',
  current: false,
};
const mine: OwnSession = {
  id: THIS,
  created_at: '2026-11-20T08:00:00.000Z',
  expires_at: '2026-11-21T08:00:00.000Z',
  current: true,
};
const moment = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

beforeEach(() => {
  setToken(sessionToken({ level: 1, email: 'ayse@example.com' }));
  api = fakeApi({
    'GET /api/me/api-keys': () => jsonResponse(200, []),
    'GET /api/me/two-factor': () =>
      jsonResponse(200, { enabled: false, enabled_at: null, recovery_codes_left: 0, required: false }),
    'GET /api/me/sessions': () => jsonResponse(200, [newest, mine]),
  });
});

async function openSessions() {
  const user = userEvent.setup();
  const view = renderApp('/profile');
  const list = await screen.findByRole('list', { name: 'Sessions' });
  return { user, list, router: view.router };
}

describe('Profile: sessions', () => {
  it("lists the person's sessions newest first and says which one is this browser", async () => {
    const { list } = await openSessions();
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent(`Signed in ${moment.format(new Date(newest.created_at))}`);
    expect(rows[0]).not.toHaveTextContent('This browser');
    expect(within(rows[0]!).getByRole('button', { name: /^End Session/ })).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent(`Signed in ${moment.format(new Date(mine.created_at))}`);
    expect(rows[1]).toHaveTextContent('This browser');
    expect(rows[1]).toHaveTextContent(`Expires ${moment.format(new Date(mine.expires_at))}`);
    expect(within(rows[1]!).getByRole('button', { name: /^Sign Out/ })).toBeInTheDocument();
  });

  it('ends another session after a confirmation, and the list no longer has it', async () => {
    const { user, list } = await openSessions();
    api.answer(`DELETE /api/me/sessions/${OTHER}`, () => {
      api.answer('GET /api/me/sessions', () => jsonResponse(200, [mine]));
      return new Response(null, { status: 204 });
    });
    await user.click(within(list).getAllByRole('button', { name: /^End Session/ })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'End Session' });
    await user.click(within(dialog).getByRole('button', { name: 'End Session' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Session ended.');
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(api.callsTo(`DELETE /api/me/sessions/${OTHER}`)).toHaveLength(1);
    expect(getToken()).not.toBeNull();
  });

  it("ending this browser's session signs out and goes to the login page", async () => {
    const { user, list, router } = await openSessions();
    api.answer(`DELETE /api/me/sessions/${THIS}`, () => new Response(null, { status: 204 }));
    await user.click(within(list).getByRole('button', { name: /^Sign Out/ }));
    const dialog = await screen.findByRole('dialog', { name: 'End Session' });
    expect(dialog).toHaveTextContent('You will be signed out.');
    await user.click(within(dialog).getByRole('button', { name: 'End and Sign Out' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(getToken()).toBeNull();
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
  });

  it('says why a session could not be ended', async () => {
    const { user, list } = await openSessions();
    api.answer(`DELETE /api/me/sessions/${OTHER}`, () =>
      jsonResponse(404, {
        code: 'NOT_FOUND',
        message: 'Session not found.',
        errors: [{ message: 'Session not found.' }],
      }),
    );
    await user.click(within(list).getAllByRole('button', { name: /^End Session/ })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'End Session' });
    await user.click(within(dialog).getByRole('button', { name: 'End Session' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to end the session. Session not found.',
    );
  });

  it('a failed load says so and offers Retry', async () => {
    api.answer('GET /api/me/sessions', () =>
      jsonResponse(500, { code: 'INTERNAL', message: 'Something broke.', errors: [{ message: 'x' }] }),
    );
    renderApp('/profile');
    const section = await screen.findByRole('region', { name: 'Sessions' });
    expect(await within(section).findByRole('alert')).toHaveTextContent(
      'Failed to fetch your sessions. Something broke.',
    );
    expect(within(section).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
