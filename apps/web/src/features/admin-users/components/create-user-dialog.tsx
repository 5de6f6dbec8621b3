import { useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { EMAIL_MAX_LENGTH } from '@guardian/contract';
import { ErrorMessage } from '../../../components/ui/error-message';
import { FormDialog } from '../../../components/ui/form-dialog';
import { Field, Input } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { useCreateUserMutation } from '../../../api/users/user-create-mutation';
import { actionErrorMessage } from '../../../lib/api';
import { useDialogForm } from '../../../lib/use-dialog-form';
import { createUserResolver, NEW_USER_FORM } from '../lib/user-forms';
import { LevelField } from './level-field';
import { PasswordResult, savedOutcome, type PasswordOutcome } from './password-result';
import { PasswordSetupFields } from './password-setup-fields';

/**
 * Add User: e-mail, level, and a first password or a one-time set-password link. After saving, the
 * same dialog shows the password or link once. Mount it only while open.
 */
export function CreateUserDialog({ onClose }: { onClose: () => void }) {
  const createUser = useCreateUserMutation();
  const toast = useToast();
  const [outcome, setOutcome] = useState<PasswordOutcome | null>(null);
  const form = useDialogForm({
    resolver: createUserResolver,
    defaultValues: NEW_USER_FORM,
    saves: [createUser],
  });
  const { errors } = form.formState;

  const submit = form.submitWith((request) =>
    createUser.mutate(request, {
      onSuccess: (result) => {
        toast.success(`User ${result.user.email} added.`);
        setOutcome(savedOutcome(result, request.password_setup));
      },
    }),
  );

  return (
    <FormDialog
      title="Add User"
      description="A person who can sign in to Guardian."
      onClose={onClose}
      onSubmit={submit}
      saving={createUser.isPending}
      savingLabel="Adding..."
      saved={outcome && { title: 'User Added', content: <PasswordResult outcome={outcome} /> }}
    >
      <Field label="E-mail" required error={errors.email?.message}>
        {(control) => (
          <Input
            {...control}
            {...form.register('email')}
            type="email"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={EMAIL_MAX_LENGTH}
            placeholder="name@example.com"
          />
        )}
      </Field>
      <LevelField field={form.register('level')} error={errors.level?.message} />
      <FormProvider {...form}>
        <PasswordSetupFields password="first" />
      </FormProvider>
      {createUser.isError && (
        <ErrorMessage>{actionErrorMessage(createUser.error, 'Failed to add the user.')}</ErrorMessage>
      )}
    </FormDialog>
  );
}
