import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { DropdownMenu } from 'radix-ui';
import { Bell, ChevronDown, LogOut } from 'lucide-react';
import { GuardianLogo } from '../../components/guardian-logo';
import { signOut } from '../../lib/sign-out';
import { useSession } from '../../lib/session';

/** The bar above every screen: the drawer button on phones, notifications and the user menu. */
export function TopBar({ menuButton }: { menuButton: ReactNode }) {
  return (
    <header className="sticky top-0 z-30 flex h-16 shrink-0 items-center gap-3 border-b border-line bg-surface/95 px-4 backdrop-blur sm:px-6 lg:px-8">
      <div className="flex min-w-0 items-center gap-3 lg:hidden">
        {menuButton}
        <GuardianLogo
          showTagline={false}
          className="[&>span:first-child]:size-8 [&>span:first-child>svg]:size-5"
        />
      </div>
      <div className="ml-auto flex items-center gap-1 sm:gap-2">
        <button
          type="button"
          aria-label="Notifications"
          className="relative rounded-control p-2 text-ink-muted transition-colors hover:bg-canvas hover:text-ink"
        >
          <Bell aria-hidden="true" className="size-5" />
          <span
            aria-hidden="true"
            className="absolute top-1.5 right-1.5 size-2.5 rounded-full bg-danger ring-2 ring-surface"
          />
        </button>
        <UserMenu />
      </div>
    </header>
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
      <DropdownMenu.Trigger
        aria-label="User menu"
        className="flex items-center gap-2 rounded-control p-1.5 text-sm text-ink transition-colors hover:bg-canvas data-[state=open]:bg-canvas"
      >
        <span
          aria-hidden="true"
          className="flex size-8 items-center justify-center rounded-full bg-brand-soft font-semibold text-brand uppercase"
        >
          {name.charAt(0)}
        </span>
        <span className="hidden max-w-48 truncate sm:block">{name}</span>
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
