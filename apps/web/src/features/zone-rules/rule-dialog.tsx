import type { ComponentProps, ReactNode } from 'react';
import { ErrorMessage } from '../../components/ui/error-message';
import { FormDialog } from '../../components/ui/form-dialog';
import { useToast } from '../../components/ui/toast';
import { errorMessage } from '../../lib/api';

/** What the dialog reads of a save (a TanStack mutation). */
interface Save {
  isPending: boolean;
  isError: boolean;
  error: unknown;
}

interface RuleDialogProps {
  /** 'Firewall Rule': the title is 'Add Firewall Rule' or 'Edit Firewall Rule'. */
  ruleName: string;
  /** Editing a rule, not adding one. */
  editing: boolean;
  /** The add and the update mutation. */
  addRule: Save;
  updateRule: Save;
  /** The failures' words when the server gives none: 'Failed to add rule.' and 'Failed to update rule.' */
  failedToAdd: string;
  failedToUpdate: string;
  onClose: () => void;
  onSubmit: ComponentProps<typeof FormDialog>['onSubmit'];
  /** The rule's fields. */
  children: ReactNode;
}

/** The add or edit dialog of a zone's rule: its fields over Cancel and Add Rule (Save Changes). */
export function RuleDialog({
  ruleName,
  editing,
  addRule,
  updateRule,
  failedToAdd,
  failedToUpdate,
  onClose,
  onSubmit,
  children,
}: RuleDialogProps) {
  const save = editing ? updateRule : addRule;
  return (
    <FormDialog
      title={`${editing ? 'Edit' : 'Add'} ${ruleName}`}
      size="lg"
      onClose={onClose}
      onSubmit={onSubmit}
      saving={addRule.isPending || updateRule.isPending}
      submitLabel={editing ? 'Save Changes' : 'Add Rule'}
      savingLabel={editing ? 'Saving...' : 'Adding...'}
    >
      {children}
      {save.isError && (
        <ErrorMessage>{errorMessage(save.error, editing ? failedToUpdate : failedToAdd)}</ErrorMessage>
      )}
    </FormDialog>
  );
}

/** A save's `onSuccess` that says so in a toast and closes the dialog. */
export function useSavedAndClosed(onClose: () => void) {
  const toast = useToast();
  return (message: string) => ({
    onSuccess: () => {
      toast.success(message);
      onClose();
    },
  });
}
