import type { LucideIcon } from 'lucide-react';
import {
  BarChart3,
  Cloud,
  CreditCard,
  Headphones,
  History,
  LayoutDashboard,
  LifeBuoy,
  Mail,
  Server,
  Settings,
  Users,
} from 'lucide-react';

export interface MenuItem {
  label: string;
  to: string;
}

export interface MenuGroup {
  id: string;
  label: string;
  icon: LucideIcon;
  /** Every path under this prefix belongs to the group (e.g. /cloudflare/zones/7/dns). */
  prefix: string;
  items: MenuItem[];
}

export interface AdminMenuItem extends MenuItem {
  icon: LucideIcon;
}

/** Spec section 2, user sidebar menu. */
export const USER_MENU: MenuGroup[] = [
  {
    id: 'dashboard',
    label: 'Dashboard',
    icon: LayoutDashboard,
    prefix: '/dashboard',
    items: [
      { label: 'Overview', to: '/dashboard/overview' },
      { label: 'Alerts', to: '/dashboard/alerts' },
      { label: 'Activity', to: '/dashboard/activity' },
      { label: 'Performance', to: '/dashboard/performance' },
    ],
  },
  {
    id: 'servers',
    label: 'Server Management',
    icon: Server,
    prefix: '/servers',
    items: [
      { label: 'Server List', to: '/servers/list' },
      { label: 'Server Groups', to: '/servers/groups' },
      { label: 'Integrations', to: '/servers/integrations' },
    ],
  },
  {
    id: 'cloudflare',
    label: 'Cloudflare',
    icon: Cloud,
    prefix: '/cloudflare',
    items: [
      { label: 'Accounts', to: '/cloudflare/accounts' },
      { label: 'Ban Lists', to: '/cloudflare/banlists' },
      { label: 'IP Lists', to: '/cloudflare/ips' },
      { label: 'Zones', to: '/cloudflare/zones' },
      { label: 'Rules', to: '/cloudflare/rules' },
    ],
  },
  {
    id: 'mail-protection',
    label: 'Mail Protection',
    icon: Mail,
    prefix: '/mail-protection',
    items: [
      { label: 'Integration', to: '/mail-protection/integration' },
      { label: 'Filtering', to: '/mail-protection/filtering' },
      { label: 'Blocklist', to: '/mail-protection/blocklist' },
      { label: 'Logs', to: '/mail-protection/logs' },
      { label: 'Audit', to: '/mail-protection/audit' },
    ],
  },
  {
    id: 'reports',
    label: 'Reports',
    icon: BarChart3,
    prefix: '/reports',
    items: [
      { label: 'Security', to: '/reports/security' },
      { label: 'Traffic', to: '/reports/traffic' },
      { label: 'Errors', to: '/reports/errors' },
      { label: 'Activity', to: '/reports/activity' },
    ],
  },
  {
    id: 'support',
    label: 'Help and Support',
    icon: LifeBuoy,
    prefix: '/support',
    items: [
      { label: 'Guide', to: '/support/guide' },
      { label: 'FAQ', to: '/support/faq' },
      { label: 'Ticket', to: '/support/ticket' },
    ],
  },
];

/** Spec section 2, admin sidebar menu. */
export const ADMIN_MENU: AdminMenuItem[] = [
  { label: 'Dashboard', to: '/dashboard', icon: LayoutDashboard },
  { label: 'Users', to: '/admin/users', icon: Users },
  { label: 'Activity', to: '/admin/activity', icon: History },
  { label: 'Plans', to: '/admin/plans', icon: CreditCard },
  { label: 'System Setting', to: '/admin/settings', icon: Settings },
  { label: 'Helpdesk', to: '/admin/helpdesk', icon: Headphones },
];

export const DEFAULT_GROUP_ID = 'dashboard';

function isUnder(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

/** The user-menu group that holds this path, or the Dashboard group (spec: default Dashboard). */
export function groupForPath(pathname: string): string {
  return USER_MENU.find((group) => isUnder(pathname, group.prefix))?.id ?? DEFAULT_GROUP_ID;
}

/**
 * Whether a menu item is the current page: its own path or anything below it (a zone's DNS page keeps
 * Zones lit). /dashboard is the user's overview, so it lights Overview.
 */
export function isItemActive(item: MenuItem, pathname: string): boolean {
  if (item.to === '/dashboard') return pathname === '/dashboard';
  if (item.to === '/dashboard/overview' && pathname === '/dashboard') return true;
  return isUnder(pathname, item.to);
}
