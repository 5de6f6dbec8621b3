import { type FormEvent, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { EMAIL_PATTERN, type TwoFactorChallenge } from '@guardian/contract';
import { ApiError, errorMessage } from '../../../lib/api';
import { setToken } from '../../../lib/auth-token';
import { returnPathOf, sessionEndedBy, type LoginRedirect } from '../../../lib/login-redirect';
import { AccountEmailField } from '../../../components/account-email-field';
import { Button } from '../../../components/ui/button';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Field, Input } from '../../../components/ui/input';
import { useLoginMutation } from '../../../api/auth/login-mutation';

/** Spec section 8: the server's message, a fallback, or the no-response text. */
export function loginErrorText(error: unknown): string {
  if (error instanceof ApiError && error.isNetworkError) return 'Sunucuya bağlanılamadı.';
  // The spec shows the server's body: its JSON message, or a body that is not JSON as text.
  if (error instanceof ApiError && !error.serverMessage && error.bodyText) return error.bodyText;
  return errorMessage(error, 'Bir hata oluştu.');
}

/** `onChallenge`: the password was right and two-factor is on: the page asks for the code next. */
export function LoginForm({ onChallenge }: { onChallenge: (challenge: TwoFactorChallenge) => void }) {
  const navigate = useNavigate();
  const { state } = useLocation();
  const loginMutation = useLoginMutation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const trimmedEmail = email.trim();
  // Spec section 5: enabled only for a plausible e-mail and a non-empty password.
  const canSubmit = EMAIL_PATTERN.test(trimmedEmail) && password.length > 0;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!canSubmit || loginMutation.isPending) return;
    loginMutation.mutate(
      { email: trimmedEmail, password },
      {
        onSuccess: (data) => {
          if ('challenge_token' in data) return onChallenge(data);
          setToken(data.token);
          const back = returnPathOf(state);
          // An administrator requires two-factor and it is not on yet: turn it on first, then go back.
          if (data.two_factor_setup_required) {
            const enrolFirst: LoginRedirect = { from: back, sessionEnded: false, owner: null };
            void navigate('/two-factor/setup', { replace: true, state: enrolFirst });
          } else {
            void navigate(back, { replace: true });
          }
        },
      },
    );
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      {sessionEndedBy(state) && !loginMutation.isError && (
        <p
          role="status"
          className="rounded-control border border-brand/30 bg-brand/5 px-3 py-2 text-sm text-ink"
        >
          Your session has ended. Please sign in again.
        </p>
      )}
      <AccountEmailField
        inputMode="email"
        placeholder="you@company.com"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
      />
      <Field label="Password">
        {(control) => (
          <Input
            {...control}
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        )}
      </Field>
      {loginMutation.isError && <ErrorMessage>{loginErrorText(loginMutation.error)}</ErrorMessage>}
      <Button type="submit" className="w-full" disabled={!canSubmit} loading={loginMutation.isPending}>
        {loginMutation.isPending ? 'Logging in...' : 'Login'}
      </Button>
    </form>
  );
}
