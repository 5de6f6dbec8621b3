import { useId, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { clsx } from 'clsx';
import { ChevronDown } from 'lucide-react';
import { GuardianLogo } from '../../components/guardian-logo';
import { useSession } from '../../lib/session';
import { ADMIN_MENU, groupForPath, isItemActive, type MenuGroup, type MenuItem, USER_MENU } from '../menus';

interface SidebarProps {
  /** Called when a link is followed, so the phone drawer can close. */
  onNavigate?: () => void;
}

/** The dark sidebar: the admin menu for level 0, the user menu for everyone else (spec section 6). */
export function Sidebar({ onNavigate }: SidebarProps) {
  const { isAdmin } = useSession();
  return (
    <div className="dark-surface flex h-full flex-col bg-sidebar text-sidebar-ink">
      <div className="flex h-16 shrink-0 items-center border-b border-white/10 px-5">
        {/* Named by the words it shows, then where it goes (WCAG 2.5.3: no label that hides them). */}
        <Link to="/dashboard" onClick={onNavigate} className="rounded-control">
          <GuardianLogo surface="dark" />
          <span className="sr-only"> (Dashboard)</span>
        </Link>
      </div>
      <nav aria-label={isAdmin ? 'Admin menu' : 'Main menu'} className="flex-1 overflow-y-auto px-3 py-4">
        {isAdmin ? <AdminNav onNavigate={onNavigate} /> : <UserNav onNavigate={onNavigate} />}
      </nav>
    </div>
  );
}

interface MenuLinkProps extends SidebarProps {
  item: MenuItem;
  pathname: string;
  /** Shown before the label (the admin menu's icons). */
  children?: ReactNode;
}

/** A menu item's link, lit and marked as the current page while its page is open. */
function MenuLink({ item, pathname, onNavigate, children }: MenuLinkProps) {
  const active = isItemActive(item, pathname);
  return (
    <Link
      to={item.to}
      onClick={onNavigate}
      aria-current={active ? 'page' : undefined}
      className={clsx(
        'flex items-center gap-3 rounded-control px-3 py-2 text-sm transition-colors',
        active
          ? 'bg-brand font-medium text-white'
          : 'text-sidebar-ink hover:bg-sidebar-hover hover:text-white',
      )}
    >
      {children}
      {item.label}
    </Link>
  );
}

function AdminNav({ onNavigate }: SidebarProps) {
  const { pathname } = useLocation();
  return (
    <ul className="space-y-1">
      {ADMIN_MENU.map((item) => (
        <li key={item.to}>
          <MenuLink item={item} pathname={pathname} onNavigate={onNavigate}>
            <item.icon aria-hidden="true" className="size-4.5 shrink-0" />
          </MenuLink>
        </li>
      ))}
    </ul>
  );
}

/** One group open at a time; the group of the current path opens first (spec section 2). */
function UserNav({ onNavigate }: SidebarProps) {
  const { pathname } = useLocation();
  const pathGroup = groupForPath(pathname);
  const [openGroup, setOpenGroup] = useState<string | null>(pathGroup);
  // Arriving in another group by a link or the back button opens that group.
  const [seenPathGroup, setSeenPathGroup] = useState(pathGroup);
  if (pathGroup !== seenPathGroup) {
    setSeenPathGroup(pathGroup);
    setOpenGroup(pathGroup);
  }

  return (
    <ul className="space-y-1">
      {USER_MENU.map((group) => (
        <NavGroup
          key={group.id}
          group={group}
          open={openGroup === group.id}
          current={pathGroup === group.id}
          pathname={pathname}
          onToggle={() => setOpenGroup((open) => (open === group.id ? null : group.id))}
          onNavigate={onNavigate}
        />
      ))}
    </ul>
  );
}

interface NavGroupProps extends SidebarProps {
  group: MenuGroup;
  open: boolean;
  /** The current page is inside this group. */
  current: boolean;
  pathname: string;
  onToggle: () => void;
}

function NavGroup({ group, open, current, pathname, onToggle, onNavigate }: NavGroupProps) {
  const panelId = useId();
  return (
    <li>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={onToggle}
        className={clsx(
          'flex w-full items-center gap-3 rounded-control px-3 py-2 text-left text-sm font-medium transition-colors hover:bg-sidebar-hover hover:text-white',
          current ? 'text-white' : 'text-sidebar-ink',
        )}
      >
        <group.icon aria-hidden="true" className="size-4.5 shrink-0" />
        <span className="flex-1">{group.label}</span>
        <ChevronDown
          aria-hidden="true"
          className={clsx('size-4 shrink-0 transition-transform', open && 'rotate-180')}
        />
      </button>
      <ul id={panelId} hidden={!open} className="mt-1 ml-5 space-y-0.5 border-l border-white/10 pl-3">
        {group.items.map((item) => (
          <li key={item.to}>
            <MenuLink item={item} pathname={pathname} onNavigate={onNavigate} />
          </li>
        ))}
      </ul>
    </li>
  );
}
