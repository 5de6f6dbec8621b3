import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { ShieldCheck } from 'lucide-react';
import { z } from 'zod';
import {
  twoFactorConfirmRequestSchema,
  type RecoveryCodes as RecoveryCodesAnswer,
  type TwoFactorConfirmRequest,
} from '@guardian/contract';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { FormDialog } from '../../components/ui/form-dialog';
import { ErrorMessage } from '../../components/ui/error-message';
import { Field, Input } from '../../components/ui/input';
import { useToast } from '../../components/ui/toast';
import { RecoveryCodes } from '../../components/two-factor/recovery-codes';
import { TwoFactorEnrolment } from '../../components/two-factor/two-factor-enrolment';
import { actionErrorMessage } from '../../lib/api';
import { useDialogForm } from '../../lib/use-dialog-form';
import { useSession } from '../../lib/session';
import { useRecoveryCodesMutation } from '../../api/two-factor/recovery-codes-mutation';
import { useTwoFactorDisableMutation } from '../../api/two-factor/two-factor-disable-mutation';
import { useTwoFactorStatusQuery } from '../../api/two-factor/two-factor-status-query';
import { ProfileSection } from './profile-section';

const day = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });

type Confirming = 'disable' | 'codes';

const { password: passwordSchema, code: codeSchema } = twoFactorConfirmRequestSchema.shape;

/** Confirmed with the password or with a code, whichever is chosen, each by the contract's rules. */
const confirmFormSchema = z
  .discriminatedUnion('using', [
    z.object({
      using: z.literal('password'),
      value: z
        .string()
        .refine((typed) => typed.trim() !== '', 'Enter your password.')
        .pipe(passwordSchema.unwrap()),
    }),
    z.object({
      using: z.literal('code'),
      value: z
        .string()
        .refine((typed) => typed.trim() !== '', 'Enter a code.')
        .pipe(codeSchema.unwrap()),
    }),
  ])
  .transform(({ using, value }): TwoFactorConfirmRequest =>
    using === 'password' ? { password: value } : { code: value },
  );

/** Turning off and new recovery codes: confirmed with the password, or a code from the app. */
function ConfirmDialog({
  action,
  onClose,
  onCodes,
}: {
  action: Confirming;
  onClose: () => void;
  onCodes: (answer: RecoveryCodesAnswer) => void;
}) {
  const disable = useTwoFactorDisableMutation();
  const regenerate = useRecoveryCodesMutation();
  const toast = useToast();
  const form = useDialogForm({
    resolver: zodResolver(confirmFormSchema),
    defaultValues: { using: 'password', value: '' },
    saves: [disable, regenerate],
  });
  const using = form.watch('using');
  const busy = disable.isPending || regenerate.isPending;
  const turningOff = action === 'disable';
  const failed = turningOff ? disable : regenerate;
  // One message: the failed save's, else what the field lacks.
  const message = failed.isError
    ? actionErrorMessage(
        failed.error,
        turningOff ? 'Failed to turn off two-factor sign-in.' : 'Failed to make new recovery codes.',
      )
    : (form.formState.errors.value?.message ?? null);

  const submit = form.submitWith((confirmation) => {
    if (turningOff) {
      disable.mutate(confirmation, {
        onSuccess: () => {
          toast.success('Two-factor sign-in is off.');
          onClose();
        },
      });
    } else {
      regenerate.mutate(confirmation, { onSuccess: onCodes });
    }
  });
  // Another way to confirm starts with an empty field.
  const chooseUsing = { onChange: () => form.setValue('value', '') };

  return (
    <FormDialog
      title={turningOff ? 'Turn Off Two-Factor Sign-In' : 'New Recovery Codes'}
      description={
        turningOff
          ? 'Signing in will take your password alone. Confirm with your password or a code.'
          : 'Your current recovery codes stop working. Confirm with your password or a code.'
      }
      onClose={onClose}
      onSubmit={submit}
      saving={busy}
      submitLabel={turningOff ? 'Turn Off' : 'Create New Codes'}
      savingLabel={turningOff ? 'Turning off...' : 'Creating...'}
      submitVariant={turningOff ? 'danger' : 'primary'}
    >
      <fieldset className="flex flex-wrap gap-x-5 gap-y-2 text-sm text-ink">
        <legend className="sr-only">Confirm with</legend>
        <label className="flex items-center gap-2">
          <input type="radio" value="password" {...form.register('using', chooseUsing)} />
          With my password
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" value="code" {...form.register('using', chooseUsing)} />
          With a code (from the app, or a recovery code)
        </label>
      </fieldset>
      <Field label={using === 'password' ? 'Password' : 'Code'}>
        {(control) => (
          <Input
            {...control}
            type={using === 'password' ? 'password' : 'text'}
            autoComplete={using === 'password' ? 'current-password' : 'one-time-code'}
            {...form.register('value')}
            invalid={message !== null}
          />
        )}
      </Field>
      {message && <ErrorMessage>{message}</ErrorMessage>}
    </FormDialog>
  );
}

/** The profile page's two-factor sign-in: turn on (QR code, then recovery codes), turn off, new codes. */
export function TwoFactorSection() {
  const { email } = useSession();
  const status = useTwoFactorStatusQuery();
  const [enrolling, setEnrolling] = useState(false);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [newCodes, setNewCodes] = useState<string[] | null>(null);

  return (
    <ProfileSection
      id="two-factor"
      icon={ShieldCheck}
      title={
        <>
          Two-factor sign-in
          {status.data && (
            <Badge tone={status.data.enabled ? 'green' : 'grey'}>{status.data.enabled ? 'On' : 'Off'}</Badge>
          )}
        </>
      }
      description="A code from an authenticator app on your phone, asked after your password."
      action={
        status.data && !status.data.enabled && <Button onClick={() => setEnrolling(true)}>Turn On</Button>
      }
    >
      {status.isError ? (
        <ErrorMessage className="mt-4" onRetry={() => void status.refetch()}>
          {actionErrorMessage(status.error, 'Failed to fetch the two-factor state.')}
        </ErrorMessage>
      ) : status.isPending ? (
        <p className="mt-4 text-sm text-ink-muted">Loading two-factor sign-in...</p>
      ) : status.data.enabled ? (
        <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-ink">
            On since {day.format(new Date(status.data.enabled_at!))} · {status.data.recovery_codes_left} of 10
            recovery codes left
            {status.data.required && ' · required by your administrator'}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => setConfirming('codes')}>
              New Recovery Codes
            </Button>
            {!status.data.required && (
              <Button variant="danger" onClick={() => setConfirming('disable')}>
                Turn Off
              </Button>
            )}
          </div>
        </div>
      ) : (
        status.data.required && (
          <p className="mt-4 text-sm text-ink">Your administrator requires two-factor sign-in: turn it on.</p>
        )
      )}

      {enrolling && (
        <Dialog
          open
          onOpenChange={(open) => !open && setEnrolling(false)}
          title="Turn On Two-Factor Sign-In"
          size="lg"
        >
          <TwoFactorEnrolment
            email={email}
            onDone={() => setEnrolling(false)}
            onCancel={() => setEnrolling(false)}
          />
        </Dialog>
      )}
      {confirming && (
        <ConfirmDialog
          action={confirming}
          onClose={() => setConfirming(null)}
          onCodes={(answer) => {
            setConfirming(null);
            setNewCodes(answer.recovery_codes);
          }}
        />
      )}
      {newCodes && (
        <Dialog
          open
          onOpenChange={(open) => !open && setNewCodes(null)}
          title="New Recovery Codes"
          description="Save them now: they are shown only once. Each one signs you in once."
          footer={<Button onClick={() => setNewCodes(null)}>I have saved my recovery codes</Button>}
        >
          <RecoveryCodes codes={newCodes} email={email} />
        </Dialog>
      )}
    </ProfileSection>
  );
}
