import { useCallback, useState } from 'react';

/** Where the person's choice to show or hide the sidebar on a wide screen is kept. */
export const SIDEBAR_STORAGE_KEY = 'guardian.sidebar';

/**
 * Tailwind's xl breakpoint. With no choice made yet the sidebar is shown from here up; from lg to xl
 * (a 1024 px laptop) it starts hidden, so that the tables keep their columns.
 */
const ROOMY_SCREEN = '(min-width: 80rem)';

type SidebarChoice = 'open' | 'closed';

function storedChoice(): SidebarChoice | null {
  try {
    const value = localStorage.getItem(SIDEBAR_STORAGE_KEY);
    return value === 'open' || value === 'closed' ? value : null;
  } catch {
    // Storage refused (a private window's policy): the default by screen width applies.
    return null;
  }
}

function storeChoice(choice: SidebarChoice) {
  try {
    localStorage.setItem(SIDEBAR_STORAGE_KEY, choice);
  } catch {
    // Not remembered, still applied.
  }
}

/**
 * Whether the sidebar is shown on a wide screen (lg and up; below lg it is a drawer), and the toggle
 * that remembers the choice across visits.
 */
export function useSidebarPreference(): [open: boolean, toggle: () => void] {
  const [open, setOpen] = useState(() => {
    const choice = storedChoice();
    return choice ? choice === 'open' : window.matchMedia(ROOMY_SCREEN).matches;
  });
  const toggle = useCallback(() => {
    storeChoice(open ? 'closed' : 'open');
    setOpen(!open);
  }, [open]);
  return [open, toggle];
}
