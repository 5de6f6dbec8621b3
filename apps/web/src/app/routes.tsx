import type { ComponentType } from 'react';
import { lazy, Suspense } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { PageSpinner } from '../components/ui/spinner';
import { RequireSignedIn, VisitorOnly } from './guards';
import { ADMIN_MENU, USER_MENU } from './menus';
import { DashboardPage } from './pages/dashboard-page';
import { NotFoundPage } from './pages/not-found-page';
import { PlaceholderPage } from './pages/placeholder-page';
import { RouteErrorPage } from './pages/route-error-page';

const AppShell = lazy(() => import('./layouts/app-shell'));
const LoginPage = lazy(() => import('../features/login'));
const Overview = lazy(() => import('../features/overview'));
const Accounts = lazy(() => import('../features/accounts'));
const BanLists = lazy(() => import('../features/banlists'));
const BanListItems = lazy(() => import('../features/banlist-items'));
const Zones = lazy(() => import('../features/zones'));
const DnsRecords = lazy(() => import('../features/dns'));
const ZoneRules = lazy(() => import('../features/zone-rules'));

/** Screens with their own feature folder; every other menu route shows a placeholder. */
const screens: Record<string, ComponentType> = {
  'dashboard/overview': Overview,
  'cloudflare/accounts': Accounts,
  'cloudflare/banlists': BanLists,
  'cloudflare/banlists/:listId/items': BanListItems,
  'cloudflare/zones': Zones,
  'cloudflare/zones/:zoneId/dns': DnsRecords,
  'cloudflare/zones/:zoneId/rules': ZoneRules,
};

const placeholders: { path: string; title: string; section: string }[] = [
  ...USER_MENU.flatMap((group) => group.items.map((item) => ({ ...item, section: group.label }))),
  ...ADMIN_MENU.map((item) => ({ ...item, section: 'Administration' })),
]
  .map((item) => ({ path: item.to.slice(1), title: item.label, section: item.section }))
  .filter((item) => item.path !== 'dashboard' && !(item.path in screens));

export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorPage />,
    children: [
      { index: true, element: <Navigate to="/dashboard" replace /> },
      {
        element: <VisitorOnly />,
        children: [
          {
            path: 'login',
            element: (
              <Suspense fallback={<PageSpinner />}>
                <LoginPage />
              </Suspense>
            ),
          },
        ],
      },
      {
        element: <RequireSignedIn />,
        children: [
          {
            element: (
              <Suspense fallback={<PageSpinner />}>
                <AppShell />
              </Suspense>
            ),
            children: [
              { path: 'dashboard', element: <DashboardPage /> },
              ...Object.entries(screens).map(([path, Screen]) => ({ path, element: <Screen /> })),
              ...placeholders.map(({ path, title, section }) => ({
                path,
                element: <PlaceholderPage key={path} title={title} section={section} />,
              })),
              { path: '*', element: <NotFoundPage /> },
            ],
          },
        ],
      },
    ],
  },
];
