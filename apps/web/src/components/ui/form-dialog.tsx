import type { ComponentProps, ReactNode } from 'react';
import { Button, type ButtonVariant } from './button';
import { Dialog } from './dialog';

interface FormDialogProps {
  title: string;
  description?: ReactNode;
  size?: ComponentProps<typeof Dialog>['size'];
  /** Closes the dialog: Cancel (or Close), Esc, the close button. */
  onClose: () => void;
  onSubmit: ComponentProps<typeof Dialog>['onSubmit'];
  /** While the save runs the dialog stays open, Cancel is off and the submit button spins. */
  saving: boolean;
  /** The submit button's text: the title unless told ('Add Account'). */
  submitLabel?: string;
  /** The submit button's text while saving: 'Saving...' unless told ('Verifying...'). */
  savingLabel?: string;
  /** The submit button is off, e.g. while the form's choices could not be read. */
  submitDisabled?: boolean;
  /** 'danger' for a submit that takes something away. */
  submitVariant?: ButtonVariant;
  /** The other button's text: 'Close' where the dialog is mostly to read. */
  cancelLabel?: string;
  /** The fields. */
  children: ReactNode;
  /**
   * What the save made, shown once (a password, a link): the dialog turns into it, with Done. It stays
   * the same Dialog, so the focus stays where the shown content puts it.
   */
  saved?: { title: string; content: ReactNode } | null;
}

/** A dialog that is a form: its fields over Cancel and the submit button, and then what it saved. */
export function FormDialog({
  title,
  description,
  size = 'sm',
  onClose,
  onSubmit,
  saving,
  submitLabel = title,
  savingLabel = 'Saving...',
  submitDisabled,
  submitVariant,
  cancelLabel = 'Cancel',
  children,
  saved,
}: FormDialogProps) {
  if (saved) {
    return (
      <Dialog
        open
        onOpenChange={(open) => !open && onClose()}
        title={saved.title}
        size={size}
        footer={<Button onClick={onClose}>Done</Button>}
      >
        {saved.content}
      </Dialog>
    );
  }
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={title}
      description={description}
      size={size}
      busy={saving}
      onSubmit={onSubmit}
      footer={
        <>
          <Button variant="secondary" disabled={saving} onClick={onClose}>
            {cancelLabel}
          </Button>
          <Button type="submit" variant={submitVariant} loading={saving} disabled={submitDisabled}>
            {saving ? savingLabel : submitLabel}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
