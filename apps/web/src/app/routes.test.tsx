import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getToken, setToken } from '../lib/auth-token';
import { renderApp } from '../test/render-app';
import { makeToken, sessionToken } from '../test/token';

describe('routing rules (spec section 2)', () => {
  it('sends a visitor from a signed-in route to /login', async () => {
    const { router } = renderApp('/cloudflare/zones');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('sends a visitor from / and from unknown paths to /login', async () => {
    const { router } = renderApp('/');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/login');
    await router.navigate('/no/such/page');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('sends a signed-in user from /login to /dashboard', async () => {
    setToken(sessionToken({ level: 1 }));
    const { router } = renderApp('/login');
    expect(await screen.findByRole('heading', { name: 'Genel Durum' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('redirects / to /dashboard', async () => {
    setToken(sessionToken({ level: 1 }));
    const { router } = renderApp('/');
    await screen.findByRole('heading', { name: 'Genel Durum' });
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('removes an expired token and sends the person to /login', async () => {
    setToken(makeToken({ exp: Math.floor(Date.now() / 1000) - 1, level: 1 }));
    const { router } = renderApp('/dashboard');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/login');
    expect(getToken()).toBeNull();
  });

  it('removes an undecodable token and sends the person to /login', async () => {
    setToken('not.a.token');
    const { router } = renderApp('/cloudflare/accounts');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/login');
    expect(getToken()).toBeNull();
  });

  it('shows the admin dashboard and admin menu for level 0', async () => {
    setToken(sessionToken({ level: 0, email: 'admin@example.com' }));
    renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('Welcome, admin@example.com')).toBeInTheDocument();
    expect(screen.getAllByRole('navigation', { name: 'Admin menu' }).length).toBeGreaterThan(0);
  });

  it.each([
    ['level 1', { level: 1 }],
    ['no level', {}],
  ])('shows the user dashboard with the four tiles of the spec for %s', async (_case, options) => {
    setToken(sessionToken(options));
    renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Genel Durum' })).toBeInTheDocument();
    // Their live values are features/overview/overview.test.tsx's.
    for (const label of ['Active Servers', 'Security Alerts', 'Blocked Threats', 'System Health']) {
      expect(screen.getByText(label, { selector: 'dt' })).toBeInTheDocument();
    }
    expect(screen.getAllByRole('navigation', { name: 'Main menu' }).length).toBeGreaterThan(0);
  });

  it('shows the overview at /dashboard/overview for an admin too', async () => {
    setToken(sessionToken({ level: 0 }));
    renderApp('/dashboard/overview');
    expect(await screen.findByRole('heading', { name: 'Genel Durum' })).toBeInTheDocument();
  });

  it.each([
    ['/mail-protection/filtering', 'Filtering'],
    ['/mail-protection/logs', 'Logs'],
  ])('renders a titled placeholder at %s', async (path, title) => {
    setToken(sessionToken({ level: 1 }));
    renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByText('This page is on its way')).toBeInTheDocument();
  });

  it.each([
    ['/cloudflare/accounts', 'Cloudflare Accounts'],
    ['/cloudflare/banlists', 'Ban Lists'],
    ['/cloudflare/banlists/abc/items', 'Ban List Items'],
    ['/cloudflare/zones', 'Zones'],
    ['/cloudflare/zones/z1/dns', 'DNS Records'],
    ['/cloudflare/zones/z1/rules', 'Rules for Zone ID: z1'],
    ['/cloudflare/rules', 'Rules'],
    ['/dashboard/performance', 'Performance'],
    ['/reports/activity', 'Activity'],
  ])('lazy-loads the screen at %s', async (path, title) => {
    setToken(sessionToken({ level: 1 }));
    renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
  });

  it('shows a 404 page with a way back for an unknown path', async () => {
    setToken(sessionToken({ level: 1 }));
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard');
  });
});
