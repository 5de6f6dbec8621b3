import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { OwnSession } from '@guardian/contract';
import { getToken, setToken } from '../../lib/auth-token';
import type { FakeApi } from '../../test/fake-api';
import { errorResponse, jsonResponse, renderApp } from '../../test/render-app';
import { fakeProfileApi } from '../../test/profile';
import { sessionToken } from '../../test/token';

let api: FakeApi;

const THIS = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const newest: OwnSession = {
  id: OTHER,
  created_at: '2026-11-21T09:30:00.000Z',
  expires_at: '2026-11-22T09:30:00.000Z',
  last_seen_at: '2026-11-21T11:45:00.000Z',
  user_agent:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Version/17.5 Mobile/15E148 Safari/604.1',
  address: '198.51.100.23',
  current: false,
};
const mine: OwnSession = {
  id: THIS,
  created_at: '2026-11-20T08:00:00.000Z',
  expires_at: '2026-11-21T08:00:00.000Z',
  last_seen_at: null,
  user_agent:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  address: null,
  current: true,
};
const moment = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

beforeEach(() => {
  setToken(sessionToken({ level: 1, email: 'ayse@example.com' }));
  api = fakeProfileApi({ 'GET /api/me/sessions': () => jsonResponse(200, [newest, mine]) });
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

  it('says on which browser and system, from which address, and when each was last used', async () => {
    const { list } = await openSessions();
    const [phone, laptop] = within(list).getAllByRole('listitem');
    expect(phone).toHaveTextContent('Safari on iOS');
    expect(phone).toHaveTextContent(
      `Signed in ${moment.format(new Date(newest.created_at))} from 198.51.100.23`,
    );
    expect(phone).toHaveTextContent(`Last seen ${moment.format(new Date(newest.last_seen_at!))}`);
    expect(laptop).toHaveTextContent('Edge on Windows');
    expect(laptop).not.toHaveTextContent('Last seen');
  });

  it('signs out all other sessions after a confirmation; this browser stays signed in', async () => {
    const { user, list } = await openSessions();
    api.answer('DELETE /api/me/sessions', () => {
      api.answer('GET /api/me/sessions', () => jsonResponse(200, [mine]));
      return jsonResponse(200, { ended: 1 });
    });
    await user.click(screen.getByRole('button', { name: 'Sign out all other sessions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out all other sessions' });
    expect(dialog).toHaveTextContent('Your API keys keep working.');
    await user.click(within(dialog).getByRole('button', { name: 'Sign out all other sessions' }));

    expect(await screen.findByRole('status')).toHaveTextContent('1 other session ended.');
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(api.callsTo('DELETE /api/me/sessions')).toHaveLength(1);
    expect(getToken()).not.toBeNull();
    // Nothing left to sign out: the button is gone.
    expect(screen.queryByRole('button', { name: 'Sign out all other sessions' })).not.toBeInTheDocument();
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
      errorResponse(404, 'NOT_FOUND', 'Session not found.'),
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
