import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { clsx } from 'clsx';
import { useQueryClient } from '@tanstack/react-query';
import { DropdownMenu } from 'radix-ui';
import { Bell, ChevronDown, LogOut, TriangleAlert, UserRound, type LucideIcon } from 'lucide-react';
import { ALERTS_OPEN_COUNT_MAX } from '@guardian/contract';
import { useAlertsSummaryQuery } from '../../api/alerts/alerts-summary-query';
import { GuardianLogo } from '../../components/guardian-logo';
import { useJobsQuery } from '../../api/jobs/jobs-query';
import { signOut } from '../../lib/sign-out';
import { useSession } from '../../lib/session';

interface TopBarProps {
  /** The drawer's button below lg, the sidebar's show/hide button from lg up. */
  menuButton: ReactNode;
  /** The sidebar is shown on a wide screen (it has the logo then). */
  sidebarOpen: boolean;
}

/** The bar above every screen: the menu button, notifications and the user menu. */
export function TopBar({ menuButton, sidebarOpen }: TopBarProps) {
  return (
    <header className="sticky top-0 z-30 flex h-(--top-bar-height) shrink-0 items-center gap-3 border-b border-line bg-surface/95 px-4 backdrop-blur sm:px-6 lg:px-8">
      <div className="flex min-w-0 items-center gap-3">
        {menuButton}
        <GuardianLogo
          showTagline={false}
          className={clsx(
            '[&>span:first-child]:size-8 [&>span:first-child>svg]:size-5',
            sidebarOpen && 'lg:hidden',
          )}
        />
      </div>
      <div className="ml-auto flex items-center gap-1 sm:gap-2">
        <AlertsCount />
        <JobsBell />
        <UserMenu />
      </div>
    </header>
  );
}

/** An icon link of the bar; `label` names it with what its red badge shows. */
function TopBarLink({
  to,
  label,
  title,
  icon: Icon,
  badge,
}: {
  to: string;
  label: string;
  title: string;
  icon: LucideIcon;
  /** The badge over the icon while there is something to tell: where it sits, its size, what it says. */
  badge: { className: string; children?: ReactNode } | false;
}) {
  return (
    <Link
      to={to}
      aria-label={label}
      title={title}
      className="relative rounded-control p-2 text-ink-muted transition-colors hover:bg-canvas hover:text-ink"
    >
      <Icon aria-hidden="true" className="size-5" />
      {badge && (
        <span
          aria-hidden="true"
          className={clsx('absolute rounded-full bg-danger ring-2 ring-surface', badge.className)}
        >
          {badge.children}
        </span>
      )}
    </Link>
  );
}

/** How often the bell asks whether an operation of the person's ended. */
export const BELL_POLL_MS = 30_000;

/**
 * The bell: opens the jobs view; its red dot lights only while some of the person's operations
 * ended since they last looked there.
 */
function JobsBell() {
  const unseen = useJobsQuery('mine', { refetchInterval: BELL_POLL_MS }).data?.unseen ?? 0;
  const label = unseen > 0 ? `Operations, ${unseen} ended since you last looked` : 'Operations';
  return (
    <TopBarLink
      to="/dashboard/jobs"
      label={label}
      title="Operations"
      icon={Bell}
      badge={unseen > 0 && { className: 'top-1.5 right-1.5 size-2.5' }}
    />
  );
}

/**
 * The number of the person's open alerts beside the bell: opens the alerts page. Counted up to
 * ALERTS_OPEN_COUNT_MAX (shown as "999+").
 */
function AlertsCount() {
  const open = useAlertsSummaryQuery({ refetchInterval: BELL_POLL_MS }).data?.open ?? 0;
  const shown = open >= ALERTS_OPEN_COUNT_MAX ? `${ALERTS_OPEN_COUNT_MAX - 1}+` : String(open);
  const label = open === 0 ? 'Alerts, none open' : `Alerts, ${shown} open`;
  return (
    <TopBarLink
      to="/dashboard/alerts"
      label={label}
      title="Alerts"
      icon={TriangleAlert}
      badge={
        open > 0 && {
          className:
            '-top-0.5 -right-0.5 min-w-5 px-1 text-center text-[11px] leading-5 font-semibold text-white',
          children: shown,
        }
      }
    />
  );
}

function UserMenu() {
  const { email, isAdmin } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const name = email ?? 'Signed in';

  const logout = async () => {
    await signOut();
    queryClient.clear();
    void navigate('/login', { replace: true });
  };

  return (
    <DropdownMenu.Root>
      {/*
        Named by the e-mail it shows, then what it is (WCAG 2.5.3): on a phone the e-mail is not shown
        but still names it. The initial is the avatar's picture, not words.
      */}
      <DropdownMenu.Trigger className="flex items-center gap-2 rounded-control p-1.5 text-sm text-ink transition-colors hover:bg-canvas data-[state=open]:bg-canvas">
        <span
          aria-hidden="true"
          className="flex size-8 items-center justify-center rounded-full bg-brand-soft font-semibold text-brand uppercase"
        >
          {name.charAt(0)}
        </span>
        <span className="sr-only sm:not-sr-only sm:block sm:max-w-48 sm:truncate">
          {name}
          <span className="sr-only"> (user menu)</span>
        </span>
        <ChevronDown aria-hidden="true" className="hidden size-4 text-ink-muted sm:block" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-50 min-w-56 animate-fade-in rounded-card border border-line bg-surface p-1.5 shadow-lg"
        >
          <div className="px-2.5 py-2">
            <p className="truncate text-sm font-medium text-ink">{name}</p>
            <p className="text-xs text-ink-muted">{isAdmin ? 'Administrator' : 'User'}</p>
          </div>
          <DropdownMenu.Separator className="my-1 h-px bg-line" />
          <DropdownMenu.Item
            onSelect={() => void navigate('/profile')}
            className="flex cursor-pointer items-center gap-2 rounded-control px-2.5 py-2 text-sm text-ink outline-none data-[highlighted]:bg-canvas"
          >
            <UserRound aria-hidden="true" className="size-4" />
            Profile
          </DropdownMenu.Item>
          <DropdownMenu.Item
            onSelect={() => void logout()}
            className="flex cursor-pointer items-center gap-2 rounded-control px-2.5 py-2 text-sm text-ink outline-none data-[highlighted]:bg-danger-soft data-[highlighted]:text-danger-hover"
          >
            <LogOut aria-hidden="true" className="size-4" />
            Logout
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
