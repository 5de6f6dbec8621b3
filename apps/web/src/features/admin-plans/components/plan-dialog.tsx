import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import {
  PLAN_LIMIT_LABELS,
  PLAN_LIMIT_MAX,
  PLAN_LIMITS,
  PLAN_NAME_MAX,
  REPORT_RANGE_WORDS,
  REPORT_RANGES,
  planRequestSchema,
  type Plan,
  type PlanFields,
  type PlanLimit,
} from '@guardian/contract';
import { ErrorMessage } from '../../../components/ui/error-message';
import { FormDialog } from '../../../components/ui/form-dialog';
import { Field, Input, Select } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { useSavePlanMutation } from '../../../api/plans/plan-save-mutation';
import { actionErrorMessage } from '../../../lib/api';
import { useDialogForm } from '../../../lib/use-dialog-form';

/** The dialog's fields: the limits as typed (text) until sent. */
type PlanForm = { name: string; report_range: PlanFields['report_range'] } & Record<PlanLimit, string>;

/** An empty or non-numeric limit is NaN, which the contract's schema refuses in its own words. */
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

const check = zodResolver(planRequestSchema);
/** The form shaped into the request, checked with the server's own schema (its messages land on the fields). */
const planResolver: Resolver<PlanForm, unknown, PlanFields> = (form, context, options) =>
  check(
    {
      ...form,
      ...Object.fromEntries(PLAN_LIMITS.map((limit) => [limit, numberOf(form[limit])])),
    } as unknown as PlanFields,
    context,
    options as unknown as Parameters<typeof check>[2],
  ) as ReturnType<Resolver<PlanForm, unknown, PlanFields>>;

const HINTS: Partial<Record<PlanLimit, string>> = {
  list_items: 'Across all their lists.',
  templates: 'Enforced once templates exist.',
};

/** Add Plan (no plan) or Edit Plan: a name, each limit and the widest report range. */
export function PlanDialog({ plan, onClose }: { plan?: Plan; onClose: () => void }) {
  const save = useSavePlanMutation();
  const toast = useToast();
  const form = useDialogForm({
    resolver: planResolver,
    defaultValues: {
      name: plan?.name ?? '',
      report_range: plan?.report_range ?? '30d',
      ...(Object.fromEntries(PLAN_LIMITS.map((limit) => [limit, plan ? String(plan[limit]) : ''])) as Record<
        PlanLimit,
        string
      >),
    },
    saves: [save],
  });
  const { errors } = form.formState;
  const submit = form.submitWith((fields) =>
    save.mutate(
      { id: plan?.id, fields },
      {
        onSuccess: (saved) => {
          toast.success(plan ? `Plan ${saved.name} saved.` : `Plan ${saved.name} created.`);
          onClose();
        },
      },
    ),
  );

  return (
    <FormDialog
      title={plan ? 'Edit Plan' : 'Add Plan'}
      description="What a person on this plan may add. Lowering a limit keeps what people already have; their next additions meet it."
      size="md"
      onClose={onClose}
      onSubmit={submit}
      saving={save.isPending}
      submitLabel={plan ? 'Save Plan' : 'Add Plan'}
    >
      <Field label="Name" required error={errors.name?.message}>
        {(control) => (
          <Input {...control} {...form.register('name')} maxLength={PLAN_NAME_MAX} autoComplete="off" />
        )}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        {PLAN_LIMITS.map((limit) => (
          <Field
            key={limit}
            label={PLAN_LIMIT_LABELS[limit]}
            required
            error={errors[limit]?.message}
            hint={HINTS[limit]}
          >
            {(control) => (
              <Input
                {...control}
                {...form.register(limit)}
                type="number"
                inputMode="numeric"
                min={0}
                max={PLAN_LIMIT_MAX}
                step={1}
              />
            )}
          </Field>
        ))}
        <Field label="Reports reach back" required error={errors.report_range?.message}>
          {(control) => (
            <Select {...control} {...form.register('report_range')}>
              {REPORT_RANGES.map((range) => (
                <option key={range} value={range}>
                  {REPORT_RANGE_WORDS[range]}
                </option>
              ))}
            </Select>
          )}
        </Field>
      </div>
      {save.isError && (
        <ErrorMessage>{actionErrorMessage(save.error, 'Failed to save the plan.')}</ErrorMessage>
      )}
    </FormDialog>
  );
}
