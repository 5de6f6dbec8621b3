import { ShieldOff } from 'lucide-react';
import { useTwoFactorResetMutation } from '../../api/two-factor/two-factor-reset-mutation';
import { Button } from '../ui/button';
import { useConfirmedAction } from '../ui/confirm-dialog';

/**
 * Administrators: turn a person's two-factor off (a lost phone). Asks first; the person's sessions
 * end, and they sign in with their password alone (or are sent to turn it on again, when required).
 */
export function ResetTwoFactorAction({
  userId,
  email,
  onReset,
}: {
  userId: number;
  email: string;
  /** After a reset: the page refreshes what it shows of the person (their two-factor column). */
  onReset?: () => void;
}) {
  const reset = useTwoFactorResetMutation();
  const confirmAction = useConfirmedAction();
  const run = () =>
    confirmAction({
      title: 'Reset Two-Factor Sign-In',
      message: `Turn off two-factor sign-in for ${email}? Their recovery codes stop working and they are signed out everywhere.`,
      confirmLabel: 'Reset',
      busyLabel: 'Resetting...',
      action: () => reset.mutateAsync(userId),
      done: `Two-factor sign-in reset for ${email}.`,
      failed: 'Failed to reset two-factor sign-in.',
    }).then((done) => done && onReset?.());
  return (
    <Button
      variant="secondary"
      size="sm"
      icon={<ShieldOff aria-hidden="true" className="size-4" />}
      aria-label={`Reset two-factor sign-in for ${email}`}
      onClick={() => void run()}
    >
      Reset 2FA
    </Button>
  );
}
