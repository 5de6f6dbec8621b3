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

/** A group of the user menu: each of its pages lives under /<id>/, which `groupForPath` relies on. */
function menuGroup(
  id: string,
  label: string,
  icon: LucideIcon,
  pages: [label: string, page: string][],
): MenuGroup {
  const prefix = `/${id}`;
  return {
    id,
    label,
    icon,
    prefix,
    items: pages.map(([pageLabel, page]) => ({ label: pageLabel, to: `${prefix}/${page}` })),
  };
}

/** Spec section 2, user sidebar menu. */
export const USER_MENU: MenuGroup[] = [
  menuGroup('dashboard', 'Dashboard', LayoutDashboard, [
    ['Overview', 'overview'],
    ['Alerts', 'alerts'],
    ['Activity', 'activity'],
    ['Performance', 'performance'],
  ]),
  menuGroup('servers', 'Server Management', Server, [
    ['Server List', 'list'],
    ['Server Groups', 'groups'],
    ['Integrations', 'integrations'],
  ]),
  menuGroup('cloudflare', 'Cloudflare', Cloud, [
    ['Accounts', 'accounts'],
    ['Ban Lists', 'banlists'],
    ['IP Lists', 'ips'],
    ['Zones', 'zones'],
    ['Rules', 'rules'],
  ]),
  menuGroup('mail-protection', 'Mail Protection', Mail, [
    ['Integration', 'integration'],
    ['Filtering', 'filtering'],
    ['Blocklist', 'blocklist'],
    ['Logs', 'logs'],
    ['Audit', 'audit'],
  ]),
  menuGroup('reports', 'Reports', BarChart3, [
    ['Security', 'security'],
    ['Traffic', 'traffic'],
    ['Errors', 'errors'],
    ['Activity', 'activity'],
  ]),
  menuGroup('support', 'Help and Support', LifeBuoy, [
    ['Guide', 'guide'],
    ['FAQ', 'faq'],
    ['Ticket', 'ticket'],
  ]),
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
