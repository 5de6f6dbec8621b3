import type { ReactNode } from 'react';
import { Spinner } from './spinner';

/**
 * Beside a search box: how many rows (or matches) there are, and a spinner while the next rows load
 * (the rows shown are the previous ones until then).
 */
export function SearchSummary({ fetching, children }: { fetching: boolean; children: ReactNode }) {
  return (
    <p className="inline-flex items-center gap-2 text-sm text-ink-muted" aria-live="polite">
      {fetching && <Spinner size="sm" label={null} className="text-brand" />}
      <span>{children}</span>
    </p>
  );
}
