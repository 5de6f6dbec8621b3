import { Suspense, useEffect, useState } from 'react';
import { Outlet } from 'react-router';
import { Dialog as RadixDialog } from 'radix-ui';
import { clsx } from 'clsx';
import { Menu, PanelLeftClose, PanelLeftOpen, X } from 'lucide-react';
import { ConfirmProvider } from '../../components/ui/confirm-dialog';
import { PageSpinner } from '../../components/ui/spinner';
import { Sidebar } from './sidebar';
import { useSidebarPreference } from './sidebar-preference';
import { TopBar } from './top-bar';

/** Tailwind's lg breakpoint: from here on the sidebar is always shown and the drawer is not needed. */
const WIDE_SCREEN = '(min-width: 64rem)';

const menuButtonClassName = '-ml-1 rounded-control p-2 text-ink transition-colors hover:bg-canvas';

/**
 * The signed-in layout: sidebar, top bar, and the current screen. Below lg the sidebar is a drawer;
 * from lg up the top bar's Menu button shows or hides it (remembered), so a 1024 px screen can give
 * the tables its whole width.
 */
export default function AppShell() {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [sidebarOpen, toggleSidebar] = useSidebarPreference();

  useEffect(() => {
    const wide = window.matchMedia(WIDE_SCREEN);
    const closeOnWide = () => wide.matches && setDrawerOpen(false);
    wide.addEventListener('change', closeOnWide);
    return () => wide.removeEventListener('change', closeOnWide);
  }, []);

  return (
    <ConfirmProvider>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-[80] focus:rounded-control focus:bg-surface focus:px-4 focus:py-2 focus:text-sm focus:font-medium focus:shadow-lg"
      >
        Skip to content
      </a>
      <div className={clsx('min-h-dvh', sidebarOpen && 'lg:grid lg:grid-cols-[16rem_minmax(0,1fr)]')}>
        {/* Shown by CSS alone (lg and up, when open), so it never flashes in before a script decides. */}
        <div id="sidebar" className={clsx('hidden bg-sidebar', sidebarOpen && 'lg:block')}>
          <aside className="sticky top-0 h-dvh">
            <Sidebar />
          </aside>
        </div>
        <RadixDialog.Root open={drawerOpen} onOpenChange={setDrawerOpen}>
          <div className="flex min-h-dvh min-w-0 flex-col">
            <TopBar
              sidebarOpen={sidebarOpen}
              menuButton={
                <>
                  <RadixDialog.Trigger
                    aria-label="Open menu"
                    className={clsx(menuButtonClassName, 'lg:hidden')}
                  >
                    <Menu aria-hidden="true" className="size-5" />
                  </RadixDialog.Trigger>
                  <button
                    type="button"
                    aria-label="Menu"
                    aria-expanded={sidebarOpen}
                    aria-controls="sidebar"
                    title={sidebarOpen ? 'Hide the menu' : 'Show the menu'}
                    onClick={toggleSidebar}
                    className={clsx(menuButtonClassName, 'hidden lg:block')}
                  >
                    {sidebarOpen ? (
                      <PanelLeftClose aria-hidden="true" className="size-5" />
                    ) : (
                      <PanelLeftOpen aria-hidden="true" className="size-5" />
                    )}
                  </button>
                </>
              }
            />
            <main
              id="main"
              tabIndex={-1}
              className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 outline-none sm:px-6 lg:px-8 lg:py-8"
            >
              <Suspense fallback={<PageSpinner />}>
                <Outlet />
              </Suspense>
            </main>
          </div>
          <RadixDialog.Portal>
            <RadixDialog.Overlay className="fixed inset-0 z-40 animate-fade-in bg-ink/60 lg:hidden" />
            <RadixDialog.Content
              aria-describedby={undefined}
              className="fixed inset-y-0 left-0 z-50 w-72 max-w-[85vw] animate-drawer-in shadow-2xl outline-none lg:hidden"
            >
              <RadixDialog.Title className="sr-only">Menu</RadixDialog.Title>
              <Sidebar onNavigate={() => setDrawerOpen(false)} />
              <RadixDialog.Close
                aria-label="Close menu"
                className="absolute top-3.5 right-3 rounded-control p-1.5 text-sidebar-ink transition-colors hover:bg-sidebar-hover hover:text-white focus-visible:outline-brand-on-dark"
              >
                <X aria-hidden="true" className="size-5" />
              </RadixDialog.Close>
            </RadixDialog.Content>
          </RadixDialog.Portal>
        </RadixDialog.Root>
      </div>
    </ConfirmProvider>
  );
}
