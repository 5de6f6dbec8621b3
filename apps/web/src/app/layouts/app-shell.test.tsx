import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { getToken, setToken } from '../../lib/auth-token';
import { renderApp } from '../../test/render-app';
import { sessionToken } from '../../test/token';
import { ADMIN_MENU, groupForPath, USER_MENU } from '../menus';
import { SIDEBAR_STORAGE_KEY } from './sidebar-preference';

/** The sidebar that is always shown from lg up (jsdom applies no media queries, so both exist). */
async function sidebar(name: string) {
  const [nav] = await screen.findAllByRole('navigation', { name });
  if (!nav) throw new Error(`no ${name}`);
  return nav;
}

function expandedGroups(nav: HTMLElement) {
  return within(nav)
    .getAllByRole('button', { expanded: true })
    .map((button) => button.textContent);
}

describe('menus (spec section 2)', () => {
  it('gives level 0 the admin menu', async () => {
    setToken(sessionToken({ level: 0 }));
    renderApp('/dashboard');
    const nav = await sidebar('Admin menu');
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual(ADMIN_MENU.map((item) => [item.label, item.to]));
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
  });

  it('gives any other level the user menu with every route of the spec', async () => {
    setToken(sessionToken({ level: 2 }));
    renderApp('/dashboard');
    const nav = await sidebar('Main menu');
    expect(
      within(nav)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual([
      'Dashboard',
      'Server Management',
      'Cloudflare',
      'Mail Protection',
      'Reports',
      'Help and Support',
    ]);
    expect(USER_MENU.flatMap((group) => group.items.map((item) => item.to))).toEqual([
      '/dashboard/overview',
      '/dashboard/alerts',
      '/dashboard/activity',
      '/dashboard/performance',
      '/servers/list',
      '/servers/groups',
      '/servers/integrations',
      '/cloudflare/accounts',
      '/cloudflare/banlists',
      '/cloudflare/ips',
      '/cloudflare/zones',
      '/cloudflare/rules',
      '/mail-protection/integration',
      '/mail-protection/filtering',
      '/mail-protection/blocklist',
      '/mail-protection/logs',
      '/mail-protection/audit',
      '/reports/security',
      '/reports/traffic',
      '/reports/errors',
      '/reports/activity',
      '/support/guide',
      '/support/faq',
      '/support/ticket',
    ]);
  });

  it('opens the Dashboard group by default', async () => {
    setToken(sessionToken({ level: 1 }));
    renderApp('/dashboard');
    const nav = await sidebar('Main menu');
    expect(expandedGroups(nav)).toEqual(['Dashboard']);
    expect(within(nav).getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
  });

  it('opens the group of the current path first, keeps one group open, and follows navigation', async () => {
    const user = userEvent.setup();
    setToken(sessionToken({ level: 1 }));
    renderApp('/cloudflare/zones/z1/dns');
    const nav = await sidebar('Main menu');
    expect(expandedGroups(nav)).toEqual(['Cloudflare']);
    expect(within(nav).getByRole('link', { name: 'Zones' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).queryByRole('link', { name: 'Overview' })).not.toBeInTheDocument();

    await user.click(within(nav).getByRole('button', { name: 'Reports' }));
    expect(expandedGroups(nav)).toEqual(['Reports']);
    await user.click(within(nav).getByRole('button', { name: 'Reports' }));
    expect(within(nav).queryAllByRole('button', { expanded: true })).toEqual([]);

    await user.click(within(nav).getByRole('button', { name: 'Help and Support' }));
    await user.click(within(nav).getByRole('link', { name: 'FAQ' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'FAQ' })).toBeInTheDocument();
    expect(expandedGroups(nav)).toEqual(['Help and Support']);
  });

  it('maps paths to their group', () => {
    expect(groupForPath('/mail-protection/logs')).toBe('mail-protection');
    expect(groupForPath('/cloudflare/banlists/1/items')).toBe('cloudflare');
    expect(groupForPath('/admin/users')).toBe('dashboard');
  });
});

describe('layout shell', () => {
  it('shows the notification bell and logs out from the user menu, ending the session on the server first', async () => {
    const user = userEvent.setup();
    const token = sessionToken({ level: 1, email: 'ayse@example.com' });
    setToken(token);
    // The top bar asks for the person's operations (the bell) and open alerts (their count).
    const topBar = ['/api/jobs?scope=mine', '/api/alerts/summary'];
    const fetchMock = vi.fn<typeof fetch>(async (url) => {
      if (url === topBar[0]) return Response.json({ jobs: [], unseen: 0 });
      if (url === topBar[1]) return Response.json({ open: 0 });
      // The browser still holds the token while the server ends its session.
      expect(getToken()).toBe(token);
      return new Response(null, { status: 204 });
    });
    vi.stubGlobal('fetch', fetchMock);
    // A placeholder screen: it asks the server nothing, so every other call is the logout's.
    const { router } = renderApp('/support/guide');
    expect(await screen.findByRole('link', { name: 'Operations' })).toHaveAttribute(
      'href',
      '/dashboard/jobs',
    );
    await user.click(screen.getByRole('button', { name: /\(user menu\)$/ }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('ayse@example.com')).toBeInTheDocument();
    await user.click(within(menu).getByRole('menuitem', { name: 'Logout' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(getToken()).toBeNull();
    const logoutCalls = fetchMock.mock.calls.filter(([url]) => !topBar.includes(String(url)));
    expect(logoutCalls).toHaveLength(1);
    const [url, init] = logoutCalls[0]!;
    expect(url).toBe('/api/auth/logout');
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('authorization')).toBe(`Bearer ${token}`);
  });

  it('signs out in the browser even when the server cannot be reached', async () => {
    const user = userEvent.setup();
    setToken(sessionToken({ level: 1 }));
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const { router } = renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: /\(user menu\)$/ }));
    await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Logout' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(getToken()).toBeNull();
  });

  it('opens the menu drawer with an accessible button and closes it with Esc and on navigation', async () => {
    const user = userEvent.setup();
    setToken(sessionToken({ level: 1 }));
    const { router } = renderApp('/dashboard');
    const menuButton = await screen.findByRole('button', { name: 'Open menu' });
    expect(menuButton).toHaveAttribute('aria-expanded', 'false');

    await user.click(menuButton);
    const drawer = screen.getByRole('dialog', { name: 'Menu' });
    expect(menuButton).toHaveAttribute('aria-expanded', 'true');
    expect(drawer).toContainElement(document.activeElement as HTMLElement);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(menuButton).toHaveFocus();

    await user.click(menuButton);
    const opened = screen.getByRole('dialog', { name: 'Menu' });
    await user.click(within(opened).getByRole('button', { name: 'Cloudflare' }));
    await user.click(within(opened).getByRole('link', { name: 'Accounts' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/cloudflare/accounts');
  });
});

describe('the sidebar on a wide screen', () => {
  /** A screen `width` px wide: matchMedia answers its min-width queries (jsdom has no layout). */
  function wideScreen(width: number) {
    vi.stubGlobal('matchMedia', (query: string) => {
      const minWidth = /\(min-width: ([\d.]+)rem\)/.exec(query)?.[1];
      return {
        matches: minWidth !== undefined && width >= Number(minWidth) * 16,
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      } as unknown as MediaQueryList;
    });
  }

  it('starts hidden at 1024 px, and the Menu button shows it and remembers the choice', async () => {
    const user = userEvent.setup();
    wideScreen(1024);
    setToken(sessionToken({ level: 1 }));
    const first = renderApp('/dashboard');
    const menu = await screen.findByRole('button', { name: 'Menu' });
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(menu).toHaveAttribute('aria-controls', 'sidebar');
    expect(document.getElementById('sidebar')).toContainElement(
      screen.getAllByRole('navigation', { name: 'Main menu' })[0]!,
    );

    await user.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    expect(localStorage.getItem(SIDEBAR_STORAGE_KEY)).toBe('open');

    first.unmount();
    renderApp('/dashboard');
    const again = await screen.findByRole('button', { name: 'Menu' });
    expect(again).toHaveAttribute('aria-expanded', 'true');
    // The keyboard works it too, and the focus stays on the button.
    again.focus();
    await user.keyboard('{Enter}');
    expect(again).toHaveAttribute('aria-expanded', 'false');
    expect(again).toHaveFocus();
    expect(localStorage.getItem(SIDEBAR_STORAGE_KEY)).toBe('closed');
  });

  it('starts shown from 1280 px up, until the person hides it', async () => {
    const user = userEvent.setup();
    wideScreen(1366);
    setToken(sessionToken({ level: 1 }));
    const first = renderApp('/dashboard');
    const menu = await screen.findByRole('button', { name: 'Menu' });
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    await user.click(menu);

    first.unmount();
    renderApp('/dashboard');
    expect(await screen.findByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
  });
});
