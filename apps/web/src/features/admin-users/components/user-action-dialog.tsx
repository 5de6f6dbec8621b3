import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorMessage } from '../../../components/ui/error-message';
import { actionErrorMessage } from '../../../lib/api';

interface UserActionDialogProps {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  variant?: 'danger' | 'primary';
  busy: boolean;
  /** The failed attempt, said in the dialog (the last administrator's refusal, for one). */
  error: unknown;
  /** The spec-style text before the server's reason. */
  failureText: string;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * A confirmation that stays open while it runs and, when the server refuses, says why in the dialog
 * (the app's confirm dialog closes on failure, and this page shows toasts only for success).
 */
export function UserActionDialog({
  title,
  message,
  confirmLabel,
  busyLabel,
  variant = 'danger',
  busy,
  error,
  failureText,
  onConfirm,
  onClose,
}: UserActionDialogProps) {
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={title}
      description={message}
      size="sm"
      busy={busy}
      footer={
        <>
          <Button variant="secondary" disabled={busy} onClick={onClose}>
            Cancel
          </Button>
          <Button variant={variant} loading={busy} onClick={onConfirm}>
            {busy ? busyLabel : confirmLabel}
          </Button>
        </>
      }
    >
      {error ? <ErrorMessage>{actionErrorMessage(error, failureText)}</ErrorMessage> : null}
    </Dialog>
  );
}
