import { vi } from 'vitest';

/** Radix places tooltips by observing sizes; jsdom has no ResizeObserver: one that observes nothing. */
export function stubResizeObserver() {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
}
