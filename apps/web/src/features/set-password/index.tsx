import { useEffect, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCircle2 } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { z } from 'zod';
import { passwordLinkUseRequestSchema } from '@guardian/contract';
import { AccountEmailField } from '../../components/account-email-field';
import { GuardianLogo } from '../../components/guardian-logo';
import { NewPasswordFields } from '../../components/new-password-fields';
import { Button, buttonClassName } from '../../components/ui/button';
import { ErrorMessage } from '../../components/ui/error-message';
import { PageSpinner } from '../../components/ui/spinner';
import { ApiError, actionErrorMessage, errorMessage } from '../../lib/api';
import { useDialogForm } from '../../lib/use-dialog-form';
import { usePasswordLinkStatusQuery } from '../../api/password-links/password-link-status-query';
import { usePasswordLinkUseMutation } from '../../api/password-links/password-link-use-mutation';
import { linkTokenOf } from './link-token';

const day = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** The new password by the server's own rules, typed twice alike. */
const setPasswordFormSchema = z
  .object({ password: passwordLinkUseRequestSchema.shape.password, confirm_password: z.string() })
  .refine((form) => form.confirm_password === form.password, {
    message: 'The two passwords differ.',
    path: ['confirm_password'],
  });

/** A refusal of the link itself (not valid, used, expired, account disabled): asking again will not help. */
function isLinkRefusal(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 409);
}

function SignInLink({ children = 'Go to sign in' }: { children?: string }) {
  return (
    <Link to="/login" className={buttonClassName('primary', 'md', 'w-full')}>
      {children}
    </Link>
  );
}

function SetPasswordForm({ token, email, expiresAt }: { token: string; email: string; expiresAt: string }) {
  const use = usePasswordLinkUseMutation();
  const form = useDialogForm({
    resolver: zodResolver(setPasswordFormSchema),
    defaultValues: { password: '', confirm_password: '' },
    saves: [use],
  });

  if (use.isSuccess) {
    return (
      <div className="space-y-5">
        <p
          role="status"
          className="flex items-start gap-2 rounded-control border border-success/30 bg-success-soft px-4 py-3 text-sm text-ink"
        >
          <CheckCircle2 aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success" />
          <span>
            Your password is set. Sign in as <strong className="break-words">{email}</strong> with your new
            password.
          </span>
        </p>
        <SignInLink>Sign in</SignInLink>
      </div>
    );
  }

  if (use.isError && isLinkRefusal(use.error)) {
    return (
      <div className="space-y-5">
        <ErrorMessage>{errorMessage(use.error, 'This set-password link cannot be used.')}</ErrorMessage>
        <SignInLink />
      </div>
    );
  }

  return (
    <form
      noValidate
      className="space-y-5"
      onSubmit={form.submitWith(({ password }) => use.mutate({ token, password }))}
    >
      <AccountEmailField value={email} readOnly className="bg-canvas" />
      <NewPasswordFields form={form} password="password" confirmation="confirm_password" />
      {use.isError && (
        <ErrorMessage>{actionErrorMessage(use.error, 'Failed to set the password.')}</ErrorMessage>
      )}
      <p className="text-xs text-ink-muted">This link works until {day.format(new Date(expiresAt))}.</p>
      <Button type="submit" className="w-full" loading={use.isPending}>
        {use.isPending ? 'Setting password...' : 'Set Password'}
      </Button>
    </form>
  );
}

/**
 * /set-password#<token>: where a one-time set-password link from an administrator opens, signed in or
 * not. It shows whose account it is, takes the new password twice, then sends the person to sign in.
 */
export default function SetPasswordPage() {
  const location = useLocation();
  // Read once: the address bar may change (a hash link) but the link opened is this one.
  const [token] = useState(() => linkTokenOf(location));
  const status = usePasswordLinkStatusQuery(token);

  useEffect(() => {
    document.title = 'Set your password · Guardian';
  }, []);

  let content;
  if (!token) {
    content = (
      <div className="space-y-5">
        <ErrorMessage>
          This set-password link is missing its token. Open the whole link you were given, or ask an
          administrator for a new one.
        </ErrorMessage>
        <SignInLink />
      </div>
    );
  } else if (status.isError) {
    content = isLinkRefusal(status.error) ? (
      <div className="space-y-5">
        <ErrorMessage>{errorMessage(status.error, 'This set-password link cannot be used.')}</ErrorMessage>
        <SignInLink />
      </div>
    ) : (
      <ErrorMessage onRetry={() => void status.refetch()}>
        {actionErrorMessage(status.error, 'Failed to check the set-password link.')}
      </ErrorMessage>
    );
  } else if (status.isPending) {
    content = <PageSpinner label="Checking the link" />;
  } else {
    content = <SetPasswordForm token={token} email={status.data.email} expiresAt={status.data.expires_at} />;
  }

  return (
    <main className="flex min-h-dvh items-start justify-center bg-canvas px-4 py-10 sm:items-center">
      <div className="w-full max-w-md rounded-card bg-surface p-6 shadow-lg ring-1 ring-line sm:p-8">
        <GuardianLogo className="mb-6" />
        <h1 className="text-2xl font-semibold tracking-tight text-ink">Set your password</h1>
        <p className="mt-1 mb-6 text-sm text-ink-muted">
          Choose the password you will sign in to Guardian with.
        </p>
        {content}
      </div>
    </main>
  );
}
