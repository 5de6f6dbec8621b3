import { clsx } from 'clsx';
import { ShieldCheck } from 'lucide-react';

interface GuardianLogoProps {
  /** 'dark' for the sidebar and other dark surfaces. */
  surface?: 'light' | 'dark';
  showTagline?: boolean;
  className?: string;
}

/** The Guardian shield, name and tagline. */
export function GuardianLogo({ surface = 'light', showTagline = true, className }: GuardianLogoProps) {
  const dark = surface === 'dark';
  return (
    <div className={clsx('flex items-center gap-3', className)}>
      <span
        aria-hidden="true"
        className={clsx(
          'flex size-10 shrink-0 items-center justify-center rounded-card',
          dark ? 'bg-brand text-white' : 'bg-brand text-white shadow-md shadow-brand/30',
        )}
      >
        <ShieldCheck className="size-6" strokeWidth={2.2} />
      </span>
      <span className="min-w-0 leading-tight">
        <span className={clsx('block text-lg font-bold tracking-tight', dark ? 'text-white' : 'text-ink')}>
          Guardian
        </span>
        {showTagline && (
          <span className={clsx('block text-xs', dark ? 'text-sidebar-ink' : 'text-ink-muted')}>
            Your Digital Guardian
          </span>
        )}
      </span>
    </div>
  );
}
