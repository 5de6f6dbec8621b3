import { useEffect, useState } from 'react';
import type { TwoFactorChallenge } from '@guardian/contract';
import { GuardianLogo } from '../../components/guardian-logo';
import { AnimatedBackground } from './components/animated-background';
import { LoginForm } from './components/login-form';
import { TwoFactorStep } from './components/two-factor-step';

/** /login (spec section 2): e-mail and password over an animated background. */
export default function LoginPage() {
  // Set after a right password when two-factor is on: the second step replaces the form.
  const [challenge, setChallenge] = useState<TwoFactorChallenge | null>(null);
  useEffect(() => {
    document.title = challenge ? 'Two-factor sign-in · Guardian' : 'Login · Guardian';
  }, [challenge]);

  return (
    <main className="relative flex min-h-dvh items-center justify-center px-4 py-10">
      <AnimatedBackground />
      <div className="relative w-full max-w-md">
        <div className="rounded-card bg-surface/95 p-6 shadow-2xl shadow-black/40 ring-1 ring-white/10 backdrop-blur sm:p-8">
          <GuardianLogo className="mb-8" />
          {challenge ? (
            <>
              <h1 className="text-2xl font-semibold tracking-tight text-ink">Two-factor sign-in</h1>
              <p className="mt-1 mb-6 text-sm text-ink-muted">
                Your password was right. Now enter the code from your authenticator app.
              </p>
              <TwoFactorStep challenge={challenge} onRestart={() => setChallenge(null)} />
            </>
          ) : (
            <>
              <h1 className="text-2xl font-semibold tracking-tight text-ink">Sign in</h1>
              <p className="mt-1 mb-6 text-sm text-ink-muted">
                Welcome back. Sign in to manage your Cloudflare security.
              </p>
              <LoginForm onChallenge={setChallenge} />
            </>
          )}
          {!challenge && (
            <p className="mt-6 text-center text-sm text-ink-muted">
              Don&apos;t have an account?{' '}
              <a
                href="#"
                onClick={(event) => event.preventDefault()}
                className="rounded font-medium text-brand underline-offset-2 hover:underline"
              >
                Sign up
              </a>
            </p>
          )}
        </div>
      </div>
    </main>
  );
}
