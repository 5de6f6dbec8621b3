import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { LockKeyhole } from 'lucide-react';
import { z } from 'zod';
import { changePasswordRequestSchema, PASSWORD_MIN_LENGTH } from '@guardian/contract';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { ErrorMessage } from '../../components/ui/error-message';
import { Field, Input } from '../../components/ui/input';
import { useToast } from '../../components/ui/toast';
import { ApiError, actionErrorMessage } from '../../lib/api';
import { useDialogForm } from '../../lib/use-dialog-form';
import { useChangePasswordMutation } from '../../api/own-account/password-change-mutation';

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
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Change Password"
      description="Every other browser and device is signed out; this one stays signed in. Your API keys are revoked: create new ones for your scripts."
      size="sm"
      busy={change.isPending}
      onSubmit={form.submitWith((request) =>
        change.mutate(request, {
          onSuccess: () => {
            toast.success('Password changed. Your other sessions have ended.');
            onClose();
          },
        }),
      )}
      footer={
        <>
          <Button variant="secondary" disabled={change.isPending} onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={change.isPending}>
            {change.isPending ? 'Changing...' : 'Change Password'}
          </Button>
        </>
      }
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
      <Field
        label="New password"
        required
        error={errors.new_password?.message}
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
      >
        {(control) => (
          <Input
            {...control}
            {...form.register('new_password')}
            type="password"
            autoComplete="new-password"
          />
        )}
      </Field>
      <Field label="Confirm new password" required error={errors.confirm_password?.message}>
        {(control) => (
          <Input
            {...control}
            {...form.register('confirm_password')}
            type="password"
            autoComplete="new-password"
          />
        )}
      </Field>
      {change.isError && !namesAField(change.error) && (
        <ErrorMessage>{actionErrorMessage(change.error, 'Failed to change the password.')}</ErrorMessage>
      )}
    </Dialog>
  );
}

/** The profile page's password: changed with the current one; every other session ends. */
export function PasswordSection() {
  const [changing, setChanging] = useState(false);
  return (
    <section
      aria-labelledby="password-title"
      className="rounded-card border border-line bg-surface p-5 shadow-xs"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <h2 id="password-title" className="flex items-center gap-2 text-base font-semibold text-ink">
            <LockKeyhole aria-hidden="true" className="size-4 text-ink-muted" />
            Password
          </h2>
          <p className="text-sm text-ink-muted">
            Changing it signs you out everywhere else: anyone holding an old session is out.
          </p>
        </div>
        <Button variant="secondary" onClick={() => setChanging(true)}>
          Change Password
        </Button>
      </div>
      {changing && <ChangePasswordDialog onClose={() => setChanging(false)} />}
    </section>
  );
}
