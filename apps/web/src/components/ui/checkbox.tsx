import type { InputHTMLAttributes, ReactNode } from 'react';
import { useId } from 'react';
import { clsx } from 'clsx';

interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: ReactNode;
}

/** A native checkbox with its label beside it. */
export function Checkbox({ label, id, className, ...props }: CheckboxProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  return (
    <div className={clsx('flex items-center gap-2', className)}>
      <input
        id={inputId}
        type="checkbox"
        className="size-4 rounded border-line-strong accent-brand disabled:cursor-not-allowed"
        {...props}
      />
      <label htmlFor={inputId} className="text-sm text-ink">
        {label}
      </label>
    </div>
  );
}

interface SwitchProps {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  /** The accessible name: what is switched on or off. */
  label: ReactNode;
  /** Text beside the switch saying its state, e.g. 'Active' / 'Passive' (spec section 4). */
  stateLabels?: { on: string; off: string };
  disabled?: boolean;
  className?: string;
}

/** An on/off switch (role="switch"): Space or Enter flips it. */
export function Switch({ checked, onCheckedChange, label, stateLabels, disabled, className }: SwitchProps) {
  const labelId = useId();
  return (
    <div className={clsx('flex items-center justify-between gap-4', className)}>
      <span id={labelId} className="text-sm text-ink">
        {label}
      </span>
      <span className="flex items-center gap-2">
        {stateLabels && (
          <span className={clsx('text-sm font-medium', checked ? 'text-success' : 'text-ink-muted')}>
            {checked ? stateLabels.on : stateLabels.off}
          </span>
        )}
        <button
          type="button"
          role="switch"
          aria-checked={checked}
          aria-labelledby={labelId}
          disabled={disabled}
          onClick={() => onCheckedChange(!checked)}
          className={clsx(
            'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors disabled:opacity-55',
            checked ? 'bg-brand' : 'bg-line-strong',
          )}
        >
          <span
            aria-hidden="true"
            className={clsx(
              'inline-block size-5 rounded-full bg-white shadow transition-transform',
              checked ? 'translate-x-5.5' : 'translate-x-0.5',
            )}
          />
        </button>
      </span>
    </div>
  );
}
