import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';

interface ProfileSectionProps {
  /** Names the heading's id (`<id>-title`), which labels the section. */
  id: string;
  icon: LucideIcon;
  title: ReactNode;
  description: ReactNode;
  /** The section's main action, beside its heading. */
  action?: ReactNode;
  children?: ReactNode;
}

/** A card of the profile page: its heading with an icon, what it is for, and its main action. */
export function ProfileSection({
  id,
  icon: Icon,
  title,
  description,
  action,
  children,
}: ProfileSectionProps) {
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="rounded-card border border-line bg-surface p-5 shadow-xs"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <h2 id={`${id}-title`} className="flex items-center gap-2 text-base font-semibold text-ink">
            <Icon aria-hidden="true" className="size-4 text-ink-muted" />
            {title}
          </h2>
          <p className="text-sm text-ink-muted">{description}</p>
        </div>
        {action}
      </div>
      {children}
    </section>
  );
}
