import { useEffect, useRef } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { QRCodeSVG } from 'qrcode.react';
import { z } from 'zod';
import { TOTP_DIGITS, twoFactorEnableRequestSchema, type TwoFactorSetup } from '@guardian/contract';
import { useTwoFactorEnableMutation } from '../../api/two-factor/two-factor-enable-mutation';
import { useTwoFactorSetupMutation } from '../../api/two-factor/two-factor-setup-mutation';
import { actionErrorMessage } from '../../lib/api';
import { useDialogForm } from '../../lib/use-dialog-form';
import { Button, CopyButton } from '../ui/button';
import { ErrorMessage } from '../ui/error-message';
import { Field, Input } from '../ui/input';
import { useCopy } from '../ui/copyable-code';
import { RecoveryCodes } from './recovery-codes';

/** The app's code as typed, spaces left out; it must be the app's (a recovery code cannot turn it on). */
const enableFormSchema = z
  .object({
    code: z
      .string()
      .transform((typed) => typed.replace(/\s/g, ''))
      .pipe(
        z
          .string()
          .regex(
            new RegExp(`^[0-9]{${TOTP_DIGITS}}$`),
            `Enter the ${TOTP_DIGITS}-digit code your app shows.`,
          ),
      ),
  })
  .pipe(twoFactorEnableRequestSchema);

/** The secret in groups of four, as people type it into an app. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

interface TwoFactorEnrolmentProps {
  email: string | null;
  /** After the person has the recovery codes and says so. */
  onDone: () => void;
  /** Shown as a Cancel button before two-factor is on. */
  onCancel?: () => void;
}

/**
 * Turning two-factor on: a new secret as a QR code and as text, confirmed with the app's first code;
 * then the ten recovery codes, shown this once. Used by the profile page and the enrolment page.
 */
export function TwoFactorEnrolment({ email, onDone, onCancel }: TwoFactorEnrolmentProps) {
  const setup = useTwoFactorSetupMutation();
  const enable = useTwoFactorEnableMutation();
  const copy = useCopy();
  const form = useDialogForm({
    resolver: zodResolver(enableFormSchema),
    defaultValues: { code: '' },
    saves: [enable],
  });
  // One message under the steps: the failed save's, else the code's.
  const message = enable.isError
    ? actionErrorMessage(enable.error, 'Failed to turn on two-factor sign-in.')
    : (form.formState.errors.code?.message ?? null);
  const { mutate: startSetup } = setup;
  const started = useRef(false);
  const codesIntro = useRef<HTMLParagraphElement>(null);

  // Once the codes show, focus moves to them: the form and its focused button are gone.
  useEffect(() => {
    if (enable.data) codesIntro.current?.focus();
  }, [enable.data]);

  // Once per enrolment (StrictMode runs effects twice): each setup replaces the secret on the server.
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    startSetup();
  }, [startSetup]);

  if (enable.data) {
    return (
      <div className="grid gap-4">
        <p ref={codesIntro} tabIndex={-1} className="text-sm text-ink outline-none">
          Two-factor sign-in is on. Keep these recovery codes somewhere safe: each one signs you in once if
          you lose your phone. <strong>They are shown only now.</strong>
        </p>
        <RecoveryCodes codes={enable.data.recovery_codes} email={email} />
        <div>
          <Button onClick={onDone}>I have saved my recovery codes</Button>
        </div>
      </div>
    );
  }

  if (setup.isError) {
    return (
      <ErrorMessage>
        {actionErrorMessage(setup.error, 'Failed to start two-factor setup.')}{' '}
        <button type="button" className="font-semibold underline" onClick={() => startSetup()}>
          Retry
        </button>
      </ErrorMessage>
    );
  }
  if (!setup.data) return <p className="text-sm text-ink-muted">Preparing a new secret...</p>;
  const secret: TwoFactorSetup = setup.data;

  const copySecret = () =>
    copy(secret.secret, {
      copied: 'Secret copied.',
      failed: 'Could not copy: select the secret and copy it.',
    });

  return (
    <form noValidate onSubmit={form.submitWith(({ code }) => enable.mutate(code))} className="grid gap-4">
      <ol className="grid list-decimal gap-4 pl-5 text-sm text-ink">
        <li>
          Scan this QR code with an authenticator app (1Password, Google Authenticator, Microsoft
          Authenticator, Aegis...).
          <div className="mt-3 w-fit rounded-control bg-white p-3 ring-1 ring-line">
            <QRCodeSVG
              value={secret.otpauth_url}
              size={176}
              marginSize={0}
              title="QR code for your authenticator app"
            />
          </div>
        </li>
        <li>
          Or type this secret into the app:
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <code
              aria-label="Secret"
              className="rounded-control bg-canvas px-3 py-2 font-mono text-sm break-all"
            >
              {grouped(secret.secret)}
            </code>
            <CopyButton onClick={() => void copySecret()} />
          </div>
        </li>
        <li>
          Enter the {TOTP_DIGITS}-digit code the app shows:
          <Field label="Code from the app" className="mt-2 max-w-56">
            {(control) => (
              <Input
                {...control}
                {...form.register('code')}
                autoComplete="one-time-code"
                inputMode="numeric"
                maxLength={TOTP_DIGITS + 2}
                invalid={message !== null}
              />
            )}
          </Field>
        </li>
      </ol>
      {message && <ErrorMessage>{message}</ErrorMessage>}
      <div className="flex flex-wrap gap-2">
        {onCancel && (
          <Button variant="secondary" onClick={onCancel} disabled={enable.isPending}>
            Cancel
          </Button>
        )}
        <Button type="submit" loading={enable.isPending}>
          {enable.isPending ? 'Turning on...' : 'Turn On'}
        </Button>
      </div>
    </form>
  );
}
