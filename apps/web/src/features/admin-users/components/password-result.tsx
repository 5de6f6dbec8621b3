import type { PasswordLink, PasswordSetup } from '@guardian/contract';
import { setPasswordUrl } from '../lib/set-password-link';
import { OneTimeSecret } from '../../../components/ui/one-time-secret';

const until = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** What a person signs in with, once: the password typed, or the set-password link the server made. */
export type PasswordOutcome =
  { kind: 'password'; email: string; password: string } | { kind: 'link'; email: string; link: PasswordLink };

/** The password or link of a new user or a reset, shown this once. */
export function PasswordResult({ outcome }: { outcome: PasswordOutcome }) {
  if (outcome.kind === 'password') {
    return (
      <>
        <p className="text-sm text-ink">
          Give <strong className="break-all">{outcome.email}</strong> this password. It is not shown again.
        </p>
        <OneTimeSecret label="Password" value={outcome.password} />
      </>
    );
  }
  return (
    <>
      <p className="text-sm text-ink">
        Send <strong className="break-all">{outcome.email}</strong> this link: they choose their password with
        it. It works once, until{' '}
        <time dateTime={outcome.link.expires_at}>{until.format(new Date(outcome.link.expires_at))}</time>, and
        is not shown again.
      </p>
      <OneTimeSecret label="Set-password link" value={setPasswordUrl(outcome.link.token)} />
    </>
  );
}

/** The outcome of a save: the link when the server made one, else the password that was typed. */
export function outcomeOf(
  email: string,
  link: PasswordLink | null,
  password: string | undefined,
): PasswordOutcome | null {
  if (link) return { kind: 'link', email, link };
  return password === undefined ? null : { kind: 'password', email, password };
}

/** The outcome of a save that sent `setup` and answered the user and the link it made (if any). */
export function savedOutcome(
  result: { user: { email: string }; password_link: PasswordLink | null },
  setup: PasswordSetup,
): PasswordOutcome | null {
  return outcomeOf(
    result.user.email,
    result.password_link,
    setup.method === 'password' ? setup.password : undefined,
  );
}
