import type { ButtonHTMLAttributes, ComponentType, ReactNode } from 'react';
import { clsx } from 'clsx';
import { Copy, Download, RefreshCw, Trash2 } from 'lucide-react';
import { Spinner } from './spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';
export type ButtonSize = 'sm' | 'md' | 'icon';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-brand text-white hover:bg-brand-hover shadow-sm',
  secondary: 'border border-line-strong bg-surface text-ink hover:bg-canvas shadow-sm',
  danger: 'bg-danger text-white hover:bg-danger-hover shadow-sm',
  ghost: 'text-ink-muted hover:bg-canvas hover:text-ink',
};

const sizes: Record<ButtonSize, string> = {
  sm: 'h-8 gap-1.5 px-3 text-sm',
  md: 'h-10 gap-2 px-4 text-sm',
  icon: 'size-9 justify-center',
};

/** The classes of a button, for a router Link or an anchor that must look like one. */
export function buttonClassName(
  variant: ButtonVariant = 'primary',
  size: ButtonSize = 'md',
  className?: string,
) {
  return clsx(
    'inline-flex shrink-0 items-center justify-center rounded-control font-medium whitespace-nowrap transition-colors',
    'disabled:cursor-not-allowed disabled:opacity-55',
    variants[variant],
    sizes[size],
    className,
  );
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Disables the button and shows a spinner; put the spec's busy text ('Adding...') in children. */
  loading?: boolean;
  /** An icon before the text (lucide icon element); replaced by the spinner while loading. */
  icon?: ReactNode;
}

export function Button({
  variant = 'primary',
  size = 'md',
  loading = false,
  icon,
  disabled,
  type = 'button',
  className,
  children,
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={buttonClassName(variant, size, className)}
      {...props}
    >
      {loading ? <Spinner size="sm" label={null} /> : icon}
      {children}
    </button>
  );
}

/** A table row's delete action: the trash icon, red on hover, named for what it deletes. */
export function DeleteButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Button
      variant="ghost"
      size="icon"
      className="hover:bg-danger-soft hover:text-danger"
      aria-label={label}
      onClick={onClick}
    >
      <Trash2 aria-hidden="true" className="size-4" />
    </Button>
  );
}

/** A small secondary button that hands over what is shown beside it (Copy, Download). */
function HandOverButton({
  icon: Icon,
  label,
  onClick,
}: {
  icon: ComponentType<{ className?: string; 'aria-hidden'?: 'true' }>;
  label: string;
  onClick: () => void;
}) {
  return (
    <Button
      variant="secondary"
      size="sm"
      icon={<Icon aria-hidden="true" className="size-4" />}
      onClick={onClick}
    >
      {label}
    </Button>
  );
}

/** Copy: puts something on the clipboard (what, and saying so, is the caller's). */
export function CopyButton({ onClick }: { onClick: () => void }) {
  return <HandOverButton icon={Copy} label="Copy" onClick={onClick} />;
}

/** Download: saves what is shown as a file (which file is the caller's). */
export function DownloadButton({ onClick }: { onClick: () => void }) {
  return <HandOverButton icon={Download} label="Download" onClick={onClick} />;
}

/**
 * Reads something again from Cloudflare ("Update", "Update List", "Update from Cloudflare"): it spins
 * while busy, and says "Syncing..." while the sync runs.
 */
export function SyncButton({
  label,
  syncing,
  busy = syncing,
  onClick,
}: {
  label: string;
  syncing: boolean;
  /** Spins: by default while syncing; longer where the call is answered before the sync ends. */
  busy?: boolean;
  onClick: () => void;
}) {
  return (
    <Button
      variant="secondary"
      icon={<RefreshCw aria-hidden="true" className="size-4" />}
      loading={busy}
      onClick={onClick}
    >
      {syncing ? 'Syncing...' : label}
    </Button>
  );
}

/** A page's form ends with its Save, on the right: off, and saying "Saving...", while the save runs. */
export function FormSaveButton({ label, saving }: { label: string; saving: boolean }) {
  return (
    <div className="flex justify-end">
      <Button type="submit" disabled={saving}>
        {saving ? 'Saving...' : label}
      </Button>
    </div>
  );
}
