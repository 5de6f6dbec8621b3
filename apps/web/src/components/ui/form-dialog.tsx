import type { ComponentProps, ReactNode } from 'react';
import { Button, type ButtonVariant } from './button';
import { Dialog } from './dialog';

/** The form's submit handler. */
export type FormDialogSubmit = NonNullable<ComponentProps<typeof Dialog>['onSubmit']>;

/**
 * How the dialog saves. Mostly `form`, `save` and `onSaved`: the form's checked request goes to the
 * mutation as it is, and `onSaved` gets its answer. A dialog whose save is more than that (an id beside
 * the request, a check first, two mutations) gives its own `onSubmit` and `saving`.
 */
type Submit<Request, Result> =
  | {
      /** `useDialogForm`'s form. */
      form: { submitWith: (onValid: (request: Request) => void) => FormDialogSubmit };
      /** A TanStack mutation whose variables are the request. */
      save: {
        mutate: (request: Request, options: { onSuccess: (result: Result) => void }) => void;
        isPending: boolean;
      };
      onSaved: (result: Result) => void;
      onSubmit?: never;
      saving?: never;
    }
  | {
      onSubmit: FormDialogSubmit;
      /** While the save runs the dialog stays open, Cancel is off and the submit button spins. */
      saving: boolean;
      form?: never;
      save?: never;
      onSaved?: never;
    };

type FormDialogProps<Request, Result> = Submit<Request, Result> & {
  title: ReactNode;
  description?: ReactNode;
  size?: ComponentProps<typeof Dialog>['size'];
  /** Closes the dialog: Cancel (or Close), Esc, the close button. */
  onClose: () => void;
  /** The submit button's text, and its text while saving ('Add Account', 'Verifying...'). */
  submitLabel: string;
  savingLabel: string;
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
};

/** A dialog that is a form: its fields over Cancel and the submit button, and then what it saved. */
export function FormDialog<Request, Result>(props: FormDialogProps<Request, Result>) {
  const {
    title,
    description,
    size = 'sm',
    onClose,
    submitLabel,
    savingLabel,
    submitDisabled,
    submitVariant,
    cancelLabel = 'Cancel',
    children,
    saved,
  } = props;
  const { onSubmit, saving } = submitOf(props);
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

/** The submit handler and whether the save runs, from either way of `Submit`. */
function submitOf<Request, Result>(submit: Submit<Request, Result>) {
  if (!submit.save) return { onSubmit: submit.onSubmit, saving: submit.saving };
  const { form, save, onSaved } = submit;
  return {
    onSubmit: form.submitWith((request) => save.mutate(request, { onSuccess: onSaved })),
    saving: save.isPending,
  };
}
