import { clsx } from 'clsx';

interface SpinnerProps {
  /** Announced to screen readers; pass null when the surrounding text already says it is loading. */
  label?: string | null;
  size?: 'sm' | 'md' | 'lg';
  className?: string;
}

const sizes = { sm: 'size-4 border-2', md: 'size-6 border-2', lg: 'size-10 border-[3px]' };

export function Spinner({ label = 'Loading', size = 'md', className }: SpinnerProps) {
  return (
    <span role={label ? 'status' : undefined} className={clsx('inline-flex items-center', className)}>
      <span
        aria-hidden="true"
        className={clsx('animate-spin rounded-full border-current border-r-transparent', sizes[size])}
      />
      {label && <span className="sr-only">{label}</span>}
    </span>
  );
}

/** A spinner centred in the content area while a lazy screen or its first data loads. */
export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="flex min-h-48 items-center justify-center text-brand">
      <Spinner size="lg" label={label} />
    </div>
  );
}
