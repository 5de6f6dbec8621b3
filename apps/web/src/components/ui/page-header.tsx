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
    // The actions sit beside the title while it keeps 18rem, else they go under it: decided by the
    // room the page has, not the screen's width (a laptop with the sidebar open is as narrow as a tablet).
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div className="min-w-0 flex-[1_1_18rem] space-y-1 break-words">
        <h1 className="text-2xl font-semibold tracking-tight text-ink">{title}</h1>
        {description && <p className="text-sm text-ink-muted">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}
