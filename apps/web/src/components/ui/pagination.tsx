import { clsx } from 'clsx';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { PAGINATION_MAX_PLAIN_PAGES, PAGINATION_WINDOW } from '@guardian/contract';

export type PageItem = number | 'ellipsis-start' | 'ellipsis-end';

/**
 * The page buttons to show (spec section 9): every page up to PAGINATION_MAX_PLAIN_PAGES, otherwise the
 * first, the last and PAGINATION_WINDOW pages either side of the current one, with an ellipsis for each gap.
 */
export function pageItems(page: number, pageCount: number): PageItem[] {
  if (pageCount <= PAGINATION_MAX_PLAIN_PAGES)
    return Array.from({ length: pageCount }, (_, index) => index + 1);
  const start = Math.max(2, page - PAGINATION_WINDOW);
  const end = Math.min(pageCount - 1, page + PAGINATION_WINDOW);
  const items: PageItem[] = [1];
  if (start > 2) items.push('ellipsis-start');
  for (let current = start; current <= end; current++) items.push(current);
  if (end < pageCount - 1) items.push('ellipsis-end');
  items.push(pageCount);
  return items;
}

interface PaginationProps {
  /** 1-based. */
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
  className?: string;
}

// Narrower on a phone so eleven items (Previous, 1 … 4 5 6 7 8 … 12, Next) fit one line at 375 px.
const pageButtonClassName =
  'inline-flex h-9 min-w-7 items-center justify-center rounded-control px-1 text-sm font-medium transition-colors disabled:cursor-not-allowed disabled:opacity-45 sm:min-w-9 sm:px-2';

/** Numbered pages with Previous/Next; renders nothing when everything fits on one page. */
export function Pagination({ page, pageCount, onPageChange, className }: PaginationProps) {
  if (pageCount <= 1) return null;
  return (
    <nav
      aria-label="Pagination"
      className={clsx('flex flex-wrap items-center justify-center gap-1', className)}
    >
      <button
        type="button"
        className={clsx(pageButtonClassName, 'gap-1 text-ink hover:bg-surface')}
        disabled={page <= 1}
        onClick={() => onPageChange(page - 1)}
      >
        <ChevronLeft aria-hidden="true" className="size-4" />
        <span className="sr-only sm:not-sr-only">Previous</span>
      </button>
      <ul className="flex flex-wrap items-center gap-0.5 sm:gap-1">
        {pageItems(page, pageCount).map((item) => (
          <li key={item}>
            {typeof item === 'number' ? (
              <button
                type="button"
                aria-label={`Page ${item}`}
                aria-current={item === page ? 'page' : undefined}
                onClick={() => onPageChange(item)}
                className={clsx(
                  pageButtonClassName,
                  item === page ? 'bg-brand text-white' : 'text-ink hover:bg-surface',
                )}
              >
                {item}
              </button>
            ) : (
              <span
                aria-hidden="true"
                className="inline-flex h-9 min-w-4 items-end justify-center pb-2 text-ink-muted"
              >
                …
              </span>
            )}
          </li>
        ))}
      </ul>
      <button
        type="button"
        className={clsx(pageButtonClassName, 'gap-1 text-ink hover:bg-surface')}
        disabled={page >= pageCount}
        onClick={() => onPageChange(page + 1)}
      >
        <span className="sr-only sm:not-sr-only">Next</span>
        <ChevronRight aria-hidden="true" className="size-4" />
      </button>
    </nav>
  );
}
