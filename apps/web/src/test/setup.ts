import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { expectTableLabelsMatchHeaders } from './table-labels';

// Every findBy/waitFor waits up to 30 s, not Testing Library's 1 s: on a shared 2-core machine under load
// a screen's first lazy load, or a job polled every second, takes seconds. One bound for the whole suite
// (the tests' own bound is in vitest.config.ts), so no test sets its own.
configure({ asyncUtilTimeout: 30_000 });

// Node 25 and later have Web Storage of their own, on the global before jsdom's window is laid over it,
// and without --localstorage-file it has no methods; Vitest 4 keeps a global that already exists, so
// localStorage was Node's, unusable (every test that signs in failed on Node 26). jsdom's own goes back.
const jsdomWindow = (globalThis as { jsdom?: { window: Window } }).jsdom?.window;
if (jsdomWindow && typeof Object.getOwnPropertyDescriptor(globalThis, 'localStorage')?.get === 'function') {
  for (const name of ['localStorage', 'sessionStorage'] as const)
    Object.defineProperty(globalThis, name, { value: jsdomWindow[name], configurable: true, writable: true });
}

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

// jsdom draws nothing on a canvas (and says so on the console): the charts show their tables alone.
HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;

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
