import { useRef, type FormEvent, type ReactNode } from 'react';
import { Dialog as RadixDialog } from 'radix-ui';
import { clsx } from 'clsx';
import { X } from 'lucide-react';

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  /** Buttons at the bottom, right-aligned (Cancel first, the main action last). */
  footer?: ReactNode;
  /** When set, body and footer become one <form>: Enter submits and a type="submit" button in the footer works. */
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  size?: 'sm' | 'md' | 'lg';
  /** While a save runs, Esc, the overlay and the close button do nothing. */
  busy?: boolean;
  children?: ReactNode;
}

const widths = { sm: 'max-w-md', md: 'max-w-lg', lg: 'max-w-2xl' };

/**
 * A modal dialog (Radix): focus is trapped inside, Esc and the close button close it, focus returns to
 * the control that opened it.
 *
 *   <Dialog open={open} onOpenChange={setOpen} title="Add Account" onSubmit={save}
 *     footer={<><Button variant="secondary" onClick={() => setOpen(false)}>Cancel</Button>
 *              <Button type="submit" loading={saving}>{saving ? 'Verifying...' : 'Add Account'}</Button></>}>
 *     ...fields
 *   </Dialog>
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  footer,
  onSubmit,
  size = 'md',
  busy,
  children,
}: DialogProps) {
  // Screens open dialogs from state, not from a Radix trigger, so Radix has no control to give focus
  // back to: remember the one that had focus when the dialog opened.
  const opener = useRef<HTMLElement | null>(null);
  const hasBody = children != null && children !== false;
  const body = (
    <>
      {/* A confirmation has only a description: no empty padded band above its buttons. The body
          scrolls on its own, under no top bar: a table's sticky header sticks to its top. */}
      {hasBody && (
        <div className="min-h-0 flex-1 space-y-4 overflow-y-auto px-5 py-4 [--top-bar-height:0px]">
          {children}
        </div>
      )}
      {footer && (
        <div
          className={clsx(
            'flex flex-col-reverse gap-2 px-5 py-3 sm:flex-row sm:justify-end',
            hasBody && 'border-t border-line',
          )}
        >
          {footer}
        </div>
      )}
    </>
  );
  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => (busy && !next ? undefined : onOpenChange(next))}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 animate-fade-in bg-ink/50" />
        <RadixDialog.Content
          onOpenAutoFocus={() => {
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            // The opener may be gone (a row deleted by the dialog): then the browser decides.
            if (opener.current?.isConnected) opener.current.focus();
            opener.current = null;
          }}
          // Radix wants an explicit "no description" rather than a missing one.
          {...(description ? {} : { 'aria-describedby': undefined })}
          className={clsx(
            'fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col',
            'animate-fade-in overflow-hidden rounded-card bg-surface shadow-xl',
            widths[size],
          )}
        >
          <div className="space-y-1 border-b border-line py-4 pr-14 pl-5">
            <RadixDialog.Title className="text-lg font-semibold text-ink">{title}</RadixDialog.Title>
            {description && (
              <RadixDialog.Description className="text-sm text-ink-muted">
                {description}
              </RadixDialog.Description>
            )}
          </div>
          {onSubmit ? (
            <form
              noValidate
              className="flex min-h-0 flex-1 flex-col"
              onSubmit={(event) => {
                event.preventDefault();
                onSubmit(event);
              }}
            >
              {body}
            </form>
          ) : (
            <div className="flex min-h-0 flex-1 flex-col">{body}</div>
          )}
          {/* Last in the DOM, so the first field rather than the close button gets the initial focus. */}
          <RadixDialog.Close
            disabled={busy}
            className="absolute top-3.5 right-3.5 rounded-control p-1.5 text-ink-muted hover:bg-canvas hover:text-ink disabled:opacity-55"
            aria-label="Close"
          >
            <X aria-hidden="true" className="size-5" />
          </RadixDialog.Close>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
