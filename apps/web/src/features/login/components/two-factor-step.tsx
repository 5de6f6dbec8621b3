import { type FormEvent, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { TOTP_DIGITS, type TwoFactorChallenge } from '@guardian/contract';
import { ApiError } from '../../../lib/api';
import { setToken } from '../../../lib/auth-token';
import { returnPathOf } from '../../../lib/login-redirect';
import { Button } from '../../../components/ui/button';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Field, Input } from '../../../components/ui/input';
import { useLoginTwoFactorMutation } from '../../../api/auth/login-two-factor-mutation';
import { loginErrorText } from './login-form';

/** A wrong code names the field; any other 401 is the challenge (expired, used): sign in again. */
function mustStartAgain(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && error.body?.errors[0]?.field !== 'code';
}

/**
 * Sign-in's second step, after a right password when two-factor is on: the 6-digit code of the
 * person's authenticator app, or one of their recovery codes.
 */
export function TwoFactorStep({
  challenge,
  onRestart,
}: {
  challenge: TwoFactorChallenge;
  onRestart: () => void;
}) {
  const navigate = useNavigate();
  const { state } = useLocation();
  const verify = useLoginTwoFactorMutation();
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const typed = useRecovery ? code.trim() : code.replace(/\s/g, '');
  const canSubmit = useRecovery ? typed.length > 0 : new RegExp(`^[0-9]{${TOTP_DIGITS}}$`).test(typed);
  const expired = verify.isError && mustStartAgain(verify.error);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!canSubmit || verify.isPending) return;
    verify.mutate(
      { challenge_token: challenge.challenge_token, code: typed },
      {
        onSuccess: (data) => {
          setToken(data.token);
          void navigate(returnPathOf(state), { replace: true });
        },
        // A wrong code is typed again from scratch.
        onError: () => setCode(''),
      },
    );
  };

  const switchKind = () => {
    setUseRecovery(!useRecovery);
    setCode('');
    verify.reset();
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      <Field
        label={useRecovery ? 'Recovery code' : 'Authentication code'}
        hint={
          useRecovery
            ? 'One of the codes you saved when you turned two-factor on. Each works once.'
            : `The ${TOTP_DIGITS}-digit code your authenticator app shows for Guardian.`
        }
      >
        {(control) => (
          <Input
            {...control}
            key={useRecovery ? 'recovery' : 'totp'}
            name="code"
            autoFocus
            autoComplete="one-time-code"
            inputMode={useRecovery ? 'text' : 'numeric'}
            maxLength={useRecovery ? 32 : TOTP_DIGITS + 2}
            placeholder={useRecovery ? 'xxxxx-xxxxx' : '123456'}
            value={code}
            invalid={verify.isError}
            onChange={(event) => setCode(event.target.value)}
          />
        )}
      </Field>
      {verify.isError && <ErrorMessage>{loginErrorText(verify.error)}</ErrorMessage>}
      {expired ? (
        <Button type="button" className="w-full" onClick={onRestart}>
          Sign in again
        </Button>
      ) : (
        <Button type="submit" className="w-full" disabled={!canSubmit} loading={verify.isPending}>
          {verify.isPending ? 'Verifying...' : 'Verify'}
        </Button>
      )}
      <div className="flex flex-wrap justify-between gap-2 text-sm">
        <button
          type="button"
          className="rounded font-medium text-brand underline-offset-2 hover:underline"
          onClick={switchKind}
        >
          {useRecovery ? 'Use a code from the app' : 'Use a recovery code'}
        </button>
        <button
          type="button"
          className="rounded font-medium text-ink-muted underline-offset-2 hover:underline"
          onClick={onRestart}
        >
          Back to sign in
        </button>
      </div>
    </form>
  );
}
