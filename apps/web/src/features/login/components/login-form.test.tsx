import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getToken, setToken } from '../../../lib/auth-token';
import { jsonResponse, renderApp } from '../../../test/render-app';
import { sessionToken } from '../../../test/token';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

async function openLogin() {
  const user = userEvent.setup();
  const view = renderApp('/login');
  await screen.findByRole('heading', { name: 'Sign in' });
  return { user, ...view };
}

async function fillAndSubmit(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('E-mail'), 'ayse@example.com');
  await user.type(screen.getByLabelText('Password'), 'secret');
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

describe('an ended session', () => {
  it('says why the person is at /login and signs them in back where they were', async () => {
    setToken(sessionToken({ level: 1, expiresInS: -60 }));
    const user = userEvent.setup();
    const { router } = renderApp('/cloudflare/zones?page=2');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Your session has ended. Please sign in again.');
    fetchMock.mockResolvedValue(jsonResponse(200, { token: sessionToken({ level: 1 }) }));
    await fillAndSubmit(user);
    await waitFor(() => expect(router.state.location.pathname).toBe('/cloudflare/zones'));
    expect(router.state.location.search).toBe('?page=2');
  });

  it("sends another person who signs in to /dashboard, not to the ended session's page", async () => {
    setToken(sessionToken({ level: 1, userId: 1, email: 'ayse@example.com', expiresInS: -60 }));
    const user = userEvent.setup();
    const { router } = renderApp('/cloudflare/banlists/7/items?search=10.0.0.1');
    expect(await screen.findByRole('status')).toHaveTextContent('Your session has ended.');
    fetchMock.mockResolvedValue(
      jsonResponse(200, { token: sessionToken({ level: 1, userId: 2, email: 'mehmet@example.com' }) }),
    );
    await fillAndSubmit(user);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(router.state.location.search).toBe('');
  });

  it('says nothing to a visitor, who goes to /dashboard after signing in', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/login');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    fetchMock.mockResolvedValue(jsonResponse(200, { token: sessionToken({ level: 1 }) }));
    await fillAndSubmit(user);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });
});

describe('login form', () => {
  it('enables submit only for a plausible e-mail and a non-empty password', async () => {
    const { user } = await openLogin();
    const submit = screen.getByRole('button', { name: 'Login' });
    const email = screen.getByLabelText('E-mail');
    const password = screen.getByLabelText('Password');
    expect(submit).toBeDisabled();
    await user.type(password, 'x');
    for (const invalid of ['ayse', 'ayse@example', 'ay se@example.com', '@example.com']) {
      await user.clear(email);
      await user.type(email, invalid);
      expect(submit).toBeDisabled();
    }
    await user.clear(email);
    await user.type(email, 'ayse@example.com');
    expect(submit).toBeEnabled();
    await user.clear(password);
    expect(submit).toBeDisabled();
  });

  it('has a Sign up link that goes nowhere', async () => {
    const { user, router } = await openLogin();
    await user.click(screen.getByRole('link', { name: 'Sign up' }));
    expect(router.state.location.pathname).toBe('/login');
  });

  it('stores the token and goes to /dashboard on success', async () => {
    const token = sessionToken({ level: 1 });
    fetchMock.mockResolvedValue(jsonResponse(200, { token }));
    const { user, router } = await openLogin();
    await fillAndSubmit(user);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(getToken()).toBe(token);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/login');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ email: 'ayse@example.com', password: 'secret' });
    expect(await screen.findByRole('heading', { name: 'Genel Durum' })).toBeInTheDocument();
  });

  it('shows a loading state while signing in', async () => {
    fetchMock.mockReturnValue(new Promise(() => {}));
    const { user } = await openLogin();
    await fillAndSubmit(user);
    expect(await screen.findByRole('button', { name: 'Logging in...' })).toBeDisabled();
  });

  it("shows the server's message", async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(401, { code: 'UNAUTHORIZED', message: 'E-posta veya şifre hatalı.', errors: [] }),
    );
    const { user } = await openLogin();
    await fillAndSubmit(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('E-posta veya şifre hatalı.');
    expect(getToken()).toBeNull();
  });

  it("falls back to 'Bir hata oluştu.' when the body has no message", async () => {
    fetchMock.mockResolvedValue(new Response('', { status: 500 }));
    const { user } = await openLogin();
    await fillAndSubmit(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('Bir hata oluştu.');
  });

  it("shows a body that is not JSON as text (a proxy's 502)", async () => {
    fetchMock.mockResolvedValue(
      new Response('502 Bad Gateway: upstream unreachable\n', {
        status: 502,
        headers: { 'content-type': 'text/plain' },
      }),
    );
    const { user } = await openLogin();
    await fillAndSubmit(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('502 Bad Gateway: upstream unreachable');
  });

  it("shows an HTML error page's text, not its markup, and only the start of a long one", async () => {
    const page = `<html><head><title>502</title><style>b{}</style></head><body><h1>Bad Gateway</h1><p>${'x'.repeat(2_000)}</p></body></html>`;
    fetchMock.mockResolvedValue(
      new Response(page, { status: 502, headers: { 'content-type': 'text/html' } }),
    );
    const { user } = await openLogin();
    await fillAndSubmit(user);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/^502 Bad Gateway x+…$/);
    expect(alert.textContent!.length).toBeLessThanOrEqual(301);
  });

  it("shows 'Sunucuya bağlanılamadı.' when no response arrives", async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const { user } = await openLogin();
    await fillAndSubmit(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('Sunucuya bağlanılamadı.');
  });
});
