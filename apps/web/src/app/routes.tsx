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
const BanLists = lazy(() => import('../features/ban-lists'));
const BanListItems = lazy(() => import('../features/ban-list-items'));
const IpSearch = lazy(() => import('../features/ip-search'));
const Zones = lazy(() => import('../features/zones'));
const DnsRecords = lazy(() => import('../features/dns-records'));
const ZoneRules = lazy(() => import('../features/zone-rules'));
const RulesOverview = lazy(() => import('../features/rules-overview'));
const Activity = lazy(() => import('../features/activity'));
const SecurityReport = lazy(() => import('../features/reports/security'));
const TrafficReport = lazy(() => import('../features/reports/traffic'));
const ErrorsReport = lazy(() => import('../features/reports/errors'));
const ActivityReport = lazy(() => import('../features/reports/activity'));
const Performance = lazy(() => import('../features/reports/performance'));
const Jobs = lazy(() => import('../features/jobs'));
const Alerts = lazy(() => import('../features/alerts'));
const AdminActivity = lazy(() => import('../features/activity/admin'));
const AdminUsers = lazy(() => import('../features/admin-users'));
const AdminSettings = lazy(() => import('../features/admin-settings'));
const AdminPlans = lazy(() => import('../features/admin-plans'));
const Profile = lazy(() => import('../features/profile'));
const TwoFactorSetup = lazy(() => import('../features/two-factor'));
const SetPassword = lazy(() => import('../features/set-password'));
const ServerList = lazy(() => import('../features/servers/server-list'));
const ServerGroups = lazy(() => import('../features/servers/server-groups'));
const ServerIntegrations = lazy(() => import('../features/servers/server-integrations'));
const Guide = lazy(() => import('../features/support/guide'));
const Faq = lazy(() => import('../features/support/faq'));
const Ticket = lazy(() => import('../features/support/ticket'));
const Helpdesk = lazy(() => import('../features/helpdesk'));

/** Screens with their own feature folder; every other menu route shows a placeholder. */
const screens: Record<string, ComponentType> = {
  'dashboard/overview': Overview,
  'cloudflare/accounts': Accounts,
  'cloudflare/banlists': BanLists,
  'cloudflare/banlists/:listId/items': BanListItems,
  'cloudflare/ips': IpSearch,
  'cloudflare/zones': Zones,
  'cloudflare/zones/:zoneId/dns': DnsRecords,
  'cloudflare/zones/:zoneId/rules': ZoneRules,
  'cloudflare/rules': RulesOverview,
  'dashboard/alerts': Alerts,
  'dashboard/activity': Activity,
  'dashboard/performance': Performance,
  'reports/security': SecurityReport,
  'reports/traffic': TrafficReport,
  'reports/errors': ErrorsReport,
  'reports/activity': ActivityReport,
  // Opened from the top bar's bell.
  'dashboard/jobs': Jobs,
  'admin/activity': AdminActivity,
  'admin/users': AdminUsers,
  'admin/settings': AdminSettings,
  'admin/plans': AdminPlans,
  'servers/list': ServerList,
  'servers/groups': ServerGroups,
  'servers/integrations': ServerIntegrations,
  'support/guide': Guide,
  'support/faq': Faq,
  'support/ticket': Ticket,
  'admin/helpdesk': Helpdesk,
  profile: Profile,
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
        // A one-time set-password link (/set-password#<token>): for whoever holds it, signed in or not.
        path: 'set-password',
        element: (
          <Suspense fallback={<PageSpinner />}>
            <SetPassword />
          </Suspense>
        ),
      },
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
            // Outside the shell: while two-factor is required and not on, the rest is refused.
            path: 'two-factor/setup',
            element: (
              <Suspense fallback={<PageSpinner />}>
                <TwoFactorSetup />
              </Suspense>
            ),
          },
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
