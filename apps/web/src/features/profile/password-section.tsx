import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { LockKeyhole } from 'lucide-react';
import { z } from 'zod';
import { changePasswordRequestSchema } from '@guardian/contract';
import { NewPasswordFields } from '../../components/new-password-fields';
import { Button } from '../../components/ui/button';
import { FormDialog } from '../../components/ui/form-dialog';
import { ErrorMessage } from '../../components/ui/error-message';
import { Field, Input } from '../../components/ui/input';
import { useToast } from '../../components/ui/toast';
import { ApiError, actionErrorMessage } from '../../lib/api';
import { useDialogForm } from '../../lib/use-dialog-form';
import { useChangePasswordMutation } from '../../api/own-account/password-change-mutation';
import { ProfileSection } from './profile-section';

/** The request's own rules (the server's), and the new password typed twice alike. */
const changePasswordFormSchema = changePasswordRequestSchema
  .extend({ confirm_password: z.string() })
  .refine((form) => form.confirm_password === form.new_password, {
    message: 'The two new passwords differ.',
    path: ['confirm_password'],
  })
  .transform(({ current_password, new_password }) => ({ current_password, new_password }));

const FIELDS = ['current_password', 'new_password', 'confirm_password'];

/** Whether the server's refusal names a field of the form (then the message shows under it alone). */
function namesAField(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.body?.errors ?? []).some((entry) => entry.field !== undefined && FIELDS.includes(entry.field))
  );
}

function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
  const change = useChangePasswordMutation();
  const toast = useToast();
  const form = useDialogForm({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { current_password: '', new_password: '', confirm_password: '' },
    saves: [change],
  });
  const { errors } = form.formState;

  return (
    <FormDialog
      title="Change Password"
      description="Every other browser and device is signed out; this one stays signed in. Your API keys are revoked: create new ones for your scripts."
      onClose={onClose}
      {...form.submitTo(change, () => {
        toast.success('Password changed. Your other sessions have ended.');
        onClose();
      })}
      savingLabel="Changing..."
    >
      <Field label="Current password" required error={errors.current_password?.message}>
        {(control) => (
          <Input
            {...control}
            {...form.register('current_password')}
            type="password"
            autoComplete="current-password"
          />
        )}
      </Field>
      <NewPasswordFields form={form} password="new_password" confirmation="confirm_password" />
      {change.isError && !namesAField(change.error) && (
        <ErrorMessage>{actionErrorMessage(change.error, 'Failed to change the password.')}</ErrorMessage>
      )}
    </FormDialog>
  );
}

/** The profile page's password: changed with the current one; every other session ends. */
export function PasswordSection() {
  const [changing, setChanging] = useState(false);
  return (
    <ProfileSection
      id="password"
      icon={LockKeyhole}
      title="Password"
      description="Changing it signs you out everywhere else: anyone holding an old session is out."
      action={
        <Button variant="secondary" onClick={() => setChanging(true)}>
          Change Password
        </Button>
      }
    >
      {changing && <ChangePasswordDialog onClose={() => setChanging(false)} />}
    </ProfileSection>
  );
}
