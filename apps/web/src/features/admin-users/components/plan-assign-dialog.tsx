import { useState } from 'react';
import type { Plan, User } from '@guardian/contract';
import { ErrorMessage } from '../../../components/ui/error-message';
import { FormDialog } from '../../../components/ui/form-dialog';
import { Field, Select } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { useSetUserPlanMutation } from '../../../api/users/user-plan-mutation';
import { actionErrorMessage } from '../../../lib/api';

/** Give a person another plan: what they have stays; their next additions meet its limits. */
export function PlanAssignDialog({
  user,
  plans,
  onClose,
}: {
  user: User;
  plans: Plan[];
  onClose: () => void;
}) {
  const setPlan = useSetUserPlanMutation();
  const toast = useToast();
  const [planId, setPlanId] = useState(user.plan_id);
  const submit = (event?: { preventDefault(): void }) => {
    event?.preventDefault();
    if (planId === user.plan_id) return onClose();
    setPlan.mutate(
      { id: user.id, planId },
      {
        onSuccess: (saved) => {
          const name = plans.find((plan) => plan.id === saved.plan_id)?.name ?? 'the plan';
          toast.success(`${saved.email} now has ${name}.`);
          onClose();
        },
      },
    );
  };
  return (
    <FormDialog
      title="Change Plan"
      description={
        <>
          What <span className="break-all">{user.email}</span> may add. Nothing they have is removed; past a
          lower limit, their next additions are refused.
        </>
      }
      onClose={onClose}
      onSubmit={submit}
      saving={setPlan.isPending}
      submitLabel="Save Plan"
    >
      <Field label="Plan" required>
        {(control) => (
          <Select
            {...control}
            value={planId}
            onChange={(event) => {
              setPlan.reset();
              setPlanId(Number(event.target.value));
            }}
          >
            {plans.map((plan) => (
              <option key={plan.id} value={plan.id}>
                {plan.name}
                {plan.is_default ? ' (default)' : ''}
              </option>
            ))}
          </Select>
        )}
      </Field>
      {setPlan.isError && (
        <ErrorMessage>{actionErrorMessage(setPlan.error, 'Failed to change the plan.')}</ErrorMessage>
      )}
    </FormDialog>
  );
}
