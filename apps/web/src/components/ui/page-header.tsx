import type { ReactNode } from 'react';
import { useEffect } from 'react';

interface PageHeaderProps {
  title: ReactNode;
  description?: ReactNode;
  /** Buttons on the right (they wrap under the title on a phone). */
  actions?: ReactNode;
  /** The browser tab title, when `title` is not plain text. */
  documentTitle?: string;
}

/** The h1 of a screen; it also names the browser tab, so a screen reader hears where it landed. */
export function PageHeader({ title, description, actions, documentTitle }: PageHeaderProps) {
  const tabTitle = documentTitle ?? (typeof title === 'string' ? title : undefined);
  useEffect(() => {
    if (tabTitle) document.title = `${tabTitle} · Guardian`;
  }, [tabTitle]);

  return (
    <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0 space-y-1 break-words">
        <h1 className="text-2xl font-semibold tracking-tight text-ink">{title}</h1>
        {description && <p className="text-sm text-ink-muted">{description}</p>}
      </div>
      {/* The actions keep one row beside the title on wide screens; the description wraps instead. */}
      {actions && <div className="flex flex-wrap items-center gap-2 lg:shrink-0">{actions}</div>}
    </div>
  );
}
