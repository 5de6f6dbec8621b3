import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { Card, CardTitle } from '../../components/ui/card';

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
export function ProfileSection({ id, icon, title, description, action, children }: ProfileSectionProps) {
  return (
    <Card id={id}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <CardTitle id={id} icon={icon}>
            {title}
          </CardTitle>
          <p className="text-sm text-ink-muted">{description}</p>
        </div>
        {action}
      </div>
      {children}
    </Card>
  );
}
