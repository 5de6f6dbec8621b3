import { useState } from 'react';
import { FormProvider } from 'react-hook-form';
import type { User } from '@guardian/contract';
import { ErrorMessage } from '../../../components/ui/error-message';
import { FormDialog } from '../../../components/ui/form-dialog';
import { useToast } from '../../../components/ui/toast';
import { useResetUserPasswordMutation } from '../../../api/users/user-password-reset-mutation';
import { actionErrorMessage } from '../../../lib/api';
import { useDialogForm } from '../../../lib/use-dialog-form';
import { NEW_PASSWORD_FORM, resetPasswordResolver } from '../lib/user-forms';
import { PasswordResult, savedOutcome, type PasswordOutcome } from './password-result';
import { PasswordSetupFields } from './password-setup-fields';

interface ResetPasswordDialogProps {
  user: User;
  isSelf: boolean;
  onClose: () => void;
}

/**
 * Reset Password: a new password or a one-time set-password link, then shown once in the same dialog.
 * The old password stops working; the person's sessions and API keys end.
 */
export function ResetPasswordDialog({ user, isSelf, onClose }: ResetPasswordDialogProps) {
  const reset = useResetUserPasswordMutation();
  const toast = useToast();
  const [outcome, setOutcome] = useState<PasswordOutcome | null>(null);
  const form = useDialogForm({
    resolver: resetPasswordResolver,
    defaultValues: NEW_PASSWORD_FORM,
    saves: [reset],
  });

  const submit = form.submitWith(({ password_setup: setup }) =>
    reset.mutate(
      { id: user.id, setup },
      {
        onSuccess: (result) => {
          toast.success(`Password of ${result.user.email} reset.`);
          setOutcome(savedOutcome(result, setup));
        },
      },
    ),
  );

  return (
    <FormDialog
      title="Reset Password"
      description={
        <>
          For <span className="break-all">{user.email}</span>: the old password stops working, they are signed
          out everywhere{isSelf ? ' (that is you)' : ''} and their API keys are revoked.
        </>
      }
      onClose={onClose}
      onSubmit={submit}
      saving={reset.isPending}
      savingLabel="Resetting..."
      saved={outcome && { title: 'Password Reset', content: <PasswordResult outcome={outcome} /> }}
    >
      <FormProvider {...form}>
        <PasswordSetupFields password="new" />
      </FormProvider>
      {reset.isError && (
        <ErrorMessage>{actionErrorMessage(reset.error, 'Failed to reset the password.')}</ErrorMessage>
      )}
    </FormDialog>
  );
}
