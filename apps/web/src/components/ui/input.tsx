import type {
  InputHTMLAttributes,
  LabelHTMLAttributes,
  ReactNode,
  SelectHTMLAttributes,
  TextareaHTMLAttributes,
} from 'react';
import { useId } from 'react';
import { clsx } from 'clsx';
import { ChevronDown, Search } from 'lucide-react';
import type { usePagedSearch } from '../../lib/use-paged-search';

const controlClassName = clsx(
  'block w-full rounded-control border bg-surface px-3 text-sm text-ink shadow-xs transition-colors',
  'placeholder:text-ink-muted/80 disabled:cursor-not-allowed disabled:bg-canvas disabled:text-ink-muted',
  'focus-visible:border-brand',
);

function borderFor(invalid: boolean | undefined) {
  return invalid ? 'border-danger' : 'border-line-strong';
}

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  invalid?: boolean;
}

export function Input({ invalid, className, ...props }: InputProps) {
  return (
    <input
      aria-invalid={invalid || undefined}
      className={clsx(controlClassName, 'h-10', borderFor(invalid), className)}
      {...props}
    />
  );
}

/** A text input with a magnifier, for the table search boxes. Give it an aria-label or a Field. */
export function SearchInput({
  className,
  onSearch,
  ...props
}: Omit<InputProps, 'type' | 'onChange'> & {
  /** The text as the person types it. */
  onSearch: (text: string) => void;
}) {
  return (
    <div className={clsx('relative', className)}>
      <Search
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-ink-muted"
      />
      <Input type="search" className="pl-9" onChange={(event) => onSearch(event.target.value)} {...props} />
    </div>
  );
}

/**
 * The search box above a table the server pages (zones, users, a list's items): it shows and sets the
 * text of the screen's `usePagedSearch`. Give it an aria-label, a placeholder and the search's maxLength.
 */
export function PagedSearchInput({
  search,
  ...props
}: Omit<InputProps, 'type' | 'onChange' | 'value' | 'className'> & {
  search: Pick<ReturnType<typeof usePagedSearch>, 'text' | 'setText'>;
}) {
  return <SearchInput className="w-full max-w-sm" value={search.text} onSearch={search.setText} {...props} />;
}

export interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  invalid?: boolean;
}

/** A native select, styled: the browser's own list stays accessible on every device. */
export function Select({ invalid, className, children, ...props }: SelectProps) {
  return (
    <div className={clsx('relative', className)}>
      <select
        aria-invalid={invalid || undefined}
        className={clsx(controlClassName, 'h-10 appearance-none pr-9', borderFor(invalid))}
        {...props}
      >
        {children}
      </select>
      <ChevronDown
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-ink-muted"
      />
    </div>
  );
}

export function Textarea({
  invalid,
  className,
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { invalid?: boolean }) {
  return (
    <textarea
      aria-invalid={invalid || undefined}
      className={clsx(controlClassName, 'min-h-24 py-2', borderFor(invalid), className)}
      {...props}
    />
  );
}

export function Label({ className, ...props }: LabelHTMLAttributes<HTMLLabelElement>) {
  return <label className={clsx('block text-sm font-medium text-ink', className)} {...props} />;
}

/** A control inside its label, the name above it: a list's filters, a short form's fields. */
export function StackedLabel({
  text,
  className,
  children,
}: {
  text: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <label className={clsx('grid gap-1 text-sm font-medium text-ink', className)}>
      {text}
      {children}
    </label>
  );
}

/** The props a Field hands to its control so the label, hint and error are wired to it. */
export interface FieldControlProps {
  id: string;
  invalid: boolean;
  'aria-describedby': string | undefined;
}

interface FieldProps {
  label: ReactNode;
  /** Red text under the control; also marks the control invalid. */
  error?: string | null;
  hint?: ReactNode;
  /** Marks the label with an asterisk; validation itself stays with the form. */
  required?: boolean;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}

/**
 * A label, a control and its hint or error, wired together:
 *
 *   <Field label="Account Name" error={errors.accountName}>
 *     {(control) => <Input {...control} value={name} onChange={(e) => setName(e.target.value)} />}
 *   </Field>
 */
export function Field({ label, error, hint, required, className, children }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={clsx('space-y-1.5', className)}>
      <Label htmlFor={id}>
        {label}
        {required && (
          <span aria-hidden="true" className="ml-0.5 text-danger">
            *
          </span>
        )}
      </Label>
      {children({ id, invalid: Boolean(error), 'aria-describedby': describedBy })}
      {hint && (
        <p id={hintId} className="text-xs text-ink-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
