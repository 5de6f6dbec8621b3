import type { ReactNode } from 'react';
import { actionErrorMessage } from '../../lib/api';
import { ErrorMessage } from './error-message';
import { Spinner } from './spinner';

/** The card that stands for a list with nothing in it, or for a page that has nothing to show. */
export function EmptyCard({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-card border border-line bg-surface px-4 py-10 text-center text-sm text-ink-muted">
      {children}
    </p>
  );
}

/** What QueryList needs of a query (TanStack Query's result). */
interface ListQuery {
  isError: boolean;
  isPending: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * A list read by a query: its error with Retry, a spinner while it first loads, the empty card when
 * it has no rows, else the list itself (`children`).
 */
export function QueryList({
  query,
  failed,
  loading,
  rows,
  empty,
  children,
}: {
  query: ListQuery;
  /** The failure in the spec's words ("Failed to fetch activity."); the server's reason follows. */
  failed: string;
  /** The spinner's label: "Loading activity..." */
  loading: string;
  rows: readonly unknown[];
  empty: ReactNode;
  children: ReactNode;
}) {
  if (query.isError)
    return (
      <ErrorMessage onRetry={() => void query.refetch()}>
        {actionErrorMessage(query.error, failed)}
      </ErrorMessage>
    );
  if (query.isPending)
    return (
      <div className="flex justify-center py-12">
        <Spinner label={loading} />
      </div>
    );
  if (rows.length === 0) return <EmptyCard>{empty}</EmptyCard>;
  return children;
}
