import type { ReactNode } from 'react';
import { createContext, use, useCallback, useRef, useState } from 'react';
import { actionErrorMessage } from '../../lib/api';
import { Button } from './button';
import { Dialog } from './dialog';
import { useToast } from './toast';

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** The question, word for word from the spec. */
  message: ReactNode;
  /** 'Delete' unless told. */
  confirmLabel?: string;
  /** Shown on the confirm button while `busy`: a delete's is 'Deleting...' unless told. */
  busyLabel?: string;
  cancelLabel?: string;
  variant?: 'danger' | 'primary';
  busy?: boolean;
  onConfirm: () => void;
}

/** A controlled confirmation dialog; most screens want `useConfirm()` instead. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  message,
  confirmLabel = 'Delete',
  busyLabel = confirmLabel === 'Delete' ? 'Deleting...' : undefined,
  cancelLabel = 'Cancel',
  variant = 'danger',
  busy = false,
  onConfirm,
}: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={message}
      size="sm"
      busy={busy}
      footer={
        <>
          <Button variant="secondary" disabled={busy} onClick={() => onOpenChange(false)}>
            {cancelLabel}
          </Button>
          <Button variant={variant} loading={busy} onClick={onConfirm}>
            {busy && busyLabel ? busyLabel : confirmLabel}
          </Button>
        </>
      }
    />
  );
}

export interface ConfirmOptions {
  title: string;
  message: ReactNode;
  /** 'Delete' unless told. */
  confirmLabel?: string;
  cancelLabel?: string;
  variant?: 'danger' | 'primary';
  /**
   * Work to run on confirm while the dialog stays open showing `busyLabel` ('Deleting...' for a
   * Delete unless told). If it throws, the dialog closes and the promise rejects with that error.
   */
  action?: () => Promise<unknown>;
  busyLabel?: string;
}

type Confirm = (options: ConfirmOptions) => Promise<boolean>;

const ConfirmContext = createContext<Confirm | null>(null);

interface PendingConfirm {
  options: ConfirmOptions;
  resolve: (confirmed: boolean) => void;
  reject: (error: unknown) => void;
}

/** Holds the one confirmation dialog of the app; the layout shell mounts it. */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<PendingConfirm | null>(null);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const pendingRef = useRef<PendingConfirm | null>(null);

  const confirm = useCallback<Confirm>(
    (options) =>
      new Promise<boolean>((resolve, reject) => {
        pendingRef.current?.resolve(false);
        const next = { options, resolve, reject };
        pendingRef.current = next;
        setPending(next);
        setBusy(false);
        setOpen(true);
      }),
    [],
  );

  const settle = (outcome: { confirmed: boolean } | { error: unknown }) => {
    const current = pendingRef.current;
    pendingRef.current = null;
    setOpen(false);
    setBusy(false);
    if (!current) return;
    if ('error' in outcome) current.reject(outcome.error);
    else current.resolve(outcome.confirmed);
  };

  const handleConfirm = async () => {
    const action = pendingRef.current?.options.action;
    if (!action) return settle({ confirmed: true });
    setBusy(true);
    try {
      await action();
      settle({ confirmed: true });
    } catch (error) {
      settle({ error });
    }
  };

  return (
    <ConfirmContext value={confirm}>
      {children}
      {pending && (
        <ConfirmDialog
          open={open}
          onOpenChange={(next) => !next && settle({ confirmed: false })}
          title={pending.options.title}
          message={pending.options.message}
          confirmLabel={pending.options.confirmLabel}
          cancelLabel={pending.options.cancelLabel}
          busyLabel={pending.options.busyLabel}
          variant={pending.options.variant}
          busy={busy}
          onConfirm={handleConfirm}
        />
      )}
    </ConfirmContext>
  );
}

/**
 * Asks for a confirmation in a styled dialog (the spec's 'browser confirm'), resolving true or false:
 *
 *   const confirm = useConfirm();
 *   if (await confirm({ title: 'Delete ban list', message: 'Are you sure you want to delete this ban list? This action cannot be undone.' })) ...
 */
export function useConfirm(): Confirm {
  const confirm = use(ConfirmContext);
  if (!confirm) throw new Error('useConfirm needs a ConfirmProvider above it.');
  return confirm;
}

export interface ConfirmedAction extends ConfirmOptions {
  /** The success toast; a function when it says what the action answered (a count). */
  done: string | (() => string);
  /** The failure toast, before the server's reason. */
  failed: string;
}

/**
 * A write asked for in the confirm dialog, then told in a toast: `done`, or `failed` and the server's
 * reason. Resolves whether it was done, for a screen that does more afterwards.
 */
export function useConfirmedAction() {
  const confirm = useConfirm();
  const toast = useToast();
  return ({ done, failed, ...options }: ConfirmedAction): Promise<boolean> =>
    confirm(options).then(
      (confirmed) => {
        if (confirmed) toast.success(typeof done === 'string' ? done : done());
        return confirmed;
      },
      (error: unknown) => {
        toast.error(actionErrorMessage(error, failed));
        return false;
      },
    );
}
