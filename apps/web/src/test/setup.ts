import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { expectTableLabelsMatchHeaders } from './table-labels';

// Every findBy/waitFor waits up to 30 s, not Testing Library's 1 s: on a shared 2-core machine under load
// a screen's first lazy load, or a job polled every second, takes seconds. One bound for the whole suite
// (the tests' own bound is in vitest.config.ts), so no test sets its own.
configure({ asyncUtilTimeout: 30_000 });

// jsdom has no matchMedia; the layout asks it whether the screen is wide.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) satisfies MediaQueryList;
}

afterEach(() => {
  try {
    expectTableLabelsMatchHeaders();
  } finally {
    cleanup();
    localStorage.clear();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  }
});
