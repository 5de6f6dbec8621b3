import { useTwoFactorPolicyMutation } from '../../api/two-factor/two-factor-policy-mutation';
import { useTwoFactorPolicyQuery } from '../../api/two-factor/two-factor-policy-query';
import { actionErrorMessage } from '../../lib/api';
import { useConfirm } from '../ui/confirm-dialog';
import { Switch } from '../ui/checkbox';
import { ErrorMessage } from '../ui/error-message';
import { useToast } from '../ui/toast';

/**
 * Administrators: require two-factor sign-in of everyone. Turning it on asks first: whoever has not
 * turned it on (the administrator too) is sent to do so at their next step and can do nothing else
 * until then. Scripts' API keys are not affected.
 */
export function RequireTwoFactorSwitch() {
  const policy = useTwoFactorPolicyQuery();
  const change = useTwoFactorPolicyMutation();
  const confirm = useConfirm();
  const toast = useToast();

  if (policy.isError) {
    return (
      <ErrorMessage>
        {actionErrorMessage(policy.error, 'Failed to load the two-factor setting.')}
      </ErrorMessage>
    );
  }
  const required = policy.data?.required ?? false;

  const flip = async (next: boolean) => {
    const done = next
      ? await confirm({
          title: 'Require Two-Factor Sign-In',
          message:
            'Everyone without two-factor sign-in, you included, will have to turn it on before doing anything else. API keys keep working.',
          confirmLabel: 'Require',
          busyLabel: 'Saving...',
          variant: 'primary',
          action: () => change.mutateAsync(true),
        }).catch((error: unknown) => {
          toast.error(actionErrorMessage(error, 'Failed to change the two-factor setting.'));
          return false;
        })
      : await change.mutateAsync(false).then(
          () => true,
          (error: unknown) => {
            toast.error(actionErrorMessage(error, 'Failed to change the two-factor setting.'));
            return false;
          },
        );
    if (done)
      toast.success(next ? 'Two-factor sign-in is now required.' : 'Two-factor sign-in is now optional.');
  };

  return (
    <Switch
      checked={required}
      disabled={policy.isPending || change.isPending}
      onCheckedChange={(next) => void flip(next)}
      label="Require two-factor sign-in for everyone"
      stateLabels={{ on: 'Required', off: 'Optional' }}
    />
  );
}
