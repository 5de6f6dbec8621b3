import { useEffect, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { GuardianLogo } from '../../components/guardian-logo';
import { Button } from '../../components/ui/button';
import { ErrorMessage } from '../../components/ui/error-message';
import { PageSpinner } from '../../components/ui/spinner';
import { TwoFactorEnrolment } from '../../components/two-factor/two-factor-enrolment';
import { actionErrorMessage } from '../../lib/api';
import { returnPathOf } from '../../lib/login-redirect';
import { useSession } from '../../lib/session';
import { signOut } from '../../lib/sign-out';
import { useTwoFactorStatusQuery } from '../../api/two-factor/two-factor-status-query';

/**
 * /two-factor/setup: where a person is sent while an administrator requires two-factor sign-in and
 * they have not turned it on. The server refuses everything else to them until then, so this page
 * stands alone (no menus): turn it on, keep the recovery codes, then go where they were going.
 */
export default function TwoFactorSetupPage() {
  const { email } = useSession();
  const navigate = useNavigate();
  const { state } = useLocation();
  const status = useTwoFactorStatusQuery();
  const next = returnPathOf(state);
  // Decided on the first answer: turning it on refreshes the state, and the recovery codes must stay.
  const [mustEnrol, setMustEnrol] = useState<boolean | null>(null);
  if (mustEnrol === null && status.data) setMustEnrol(status.data.required && !status.data.enabled);

  useEffect(() => {
    document.title = 'Turn on two-factor sign-in · Guardian';
  }, []);

  const leave = async () => {
    await signOut();
    void navigate('/login', { replace: true });
  };

  let content;
  if (status.isError) {
    content = (
      <ErrorMessage onRetry={() => void status.refetch()}>
        {actionErrorMessage(status.error, 'Failed to fetch the two-factor state.')}
      </ErrorMessage>
    );
  } else if (mustEnrol === null) {
    content = <PageSpinner />;
  } else if (!mustEnrol) {
    // Nothing to do here (already on, or no longer required): carry on.
    return <Navigate to={next} replace />;
  } else {
    content = <TwoFactorEnrolment email={email} onDone={() => void navigate(next, { replace: true })} />;
  }

  return (
    <main className="flex min-h-dvh items-start justify-center bg-canvas px-4 py-10 sm:items-center">
      <div className="w-full max-w-xl rounded-card bg-surface p-6 shadow-lg ring-1 ring-line sm:p-8">
        <GuardianLogo className="mb-6" />
        <h1 className="text-2xl font-semibold tracking-tight text-ink">Turn on two-factor sign-in</h1>
        <p className="mt-1 mb-6 text-sm text-ink-muted">
          Your administrator requires two-factor sign-in for everyone{email ? ` (you are ${email})` : ''}.
          Turn it on to continue: you will need an authenticator app on your phone.
        </p>
        {content}
        <div className="mt-6 border-t border-line pt-4">
          <Button variant="ghost" size="sm" onClick={() => void leave()}>
            Sign out
          </Button>
        </div>
      </div>
    </main>
  );
}
