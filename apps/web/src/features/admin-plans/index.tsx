import { useState } from 'react';
import { Pencil, Plus, Star } from 'lucide-react';
import { PLAN_LIMIT_LABELS, PLAN_LIMITS, REPORT_RANGE_WORDS, type Plan } from '@guardian/contract';
import { Badge } from '../../components/ui/badge';
import { Button, DeleteButton } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { ErrorMessage } from '../../components/ui/error-message';
import { PageHeader } from '../../components/ui/page-header';
import { EmptyCard } from '../../components/ui/query-list';
import { DataTable, TableActionsCell, TableCell, TableRow } from '../../components/ui/table';
import { useToast } from '../../components/ui/toast';
import { Tooltip } from '../../components/ui/tooltip';
import { useMakeDefaultPlanMutation } from '../../api/plans/plan-default-mutation';
import { useDeletePlanMutation } from '../../api/plans/plan-delete-mutation';
import { usePlansQuery } from '../../api/plans/plans-query';
import { actionErrorMessage, errorMessage } from '../../lib/api';
import { useSession } from '../../lib/session';
import { PlanDialog } from './components/plan-dialog';

const TITLE = 'Plans';
const DESCRIPTION =
  'What each person may add. Every person has one plan (chosen on the Users page); new people get the default plan.';

/** The admin menu's Plans (/admin/plans): administrators create, edit and delete plans. */
export default function AdminPlansScreen() {
  const session = useSession();
  if (!session.isAdmin) {
    return (
      <>
        <PageHeader title={TITLE} />
        <EmptyCard>Only administrators manage plans.</EmptyCard>
      </>
    );
  }
  return <PlansView />;
}

function PlansView() {
  const plans = usePlansQuery();
  const toast = useToast();
  const [editing, setEditing] = useState<Plan | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Plan | null>(null);
  const makeDefault = useMakeDefaultPlanMutation();
  const deletePlan = useDeletePlanMutation();

  return (
    <>
      <PageHeader
        title={TITLE}
        description={DESCRIPTION}
        actions={
          <Button icon={<Plus aria-hidden="true" className="size-4" />} onClick={() => setEditing('new')}>
            Add Plan
          </Button>
        }
      />
      {plans.isError && (
        <ErrorMessage className="mb-4" onRetry={() => void plans.refetch()}>
          {errorMessage(plans.error, 'Failed to fetch plans.')}
        </ErrorMessage>
      )}
      {makeDefault.isError && (
        <ErrorMessage className="mb-4">
          {actionErrorMessage(makeDefault.error, 'Failed to change the default plan.')}
        </ErrorMessage>
      )}
      <DataTable
        caption="Plans"
        columns={[
          'Name',
          ...PLAN_LIMITS.map((limit) => PLAN_LIMIT_LABELS[limit]),
          'Reports',
          'People',
          'Actions',
        ]}
        loading={plans.isPending}
        loadingText="Loading plans..."
        rows={plans.data ?? []}
        empty="No plans yet."
      >
        {(plan) => (
          <TableRow key={plan.id}>
            <TableCell label="Name" className="font-medium">
              <span>
                {plan.name}
                {plan.is_default && (
                  <Badge tone="blue" className="ml-2">
                    Default
                  </Badge>
                )}
              </span>
            </TableCell>
            {PLAN_LIMITS.map((limit) => (
              <TableCell key={limit} label={PLAN_LIMIT_LABELS[limit]} className="tabular-nums">
                {plan[limit].toLocaleString('en-US')}
              </TableCell>
            ))}
            <TableCell label="Reports" className="whitespace-nowrap">
              {REPORT_RANGE_WORDS[plan.report_range]}
            </TableCell>
            <TableCell label="People" className="tabular-nums">
              {plan.users.toLocaleString('en-US')}
            </TableCell>
            <TableActionsCell
              label="Actions"
              className="cards:max-w-full [&>div]:gap-1 cards:[&>div]:flex-wrap"
            >
              <Tooltip content="Edit">
                <Button
                  variant="ghost"
                  size="icon"
                  className="cards:w-auto cards:gap-1.5 cards:px-2 cards:text-sm"
                  aria-label={`Edit ${plan.name}`}
                  onClick={() => setEditing(plan)}
                >
                  <Pencil aria-hidden="true" className="size-4" />
                  {/* On a card (a phone: no hover) the words show beside the icon. */}
                  <span aria-hidden="true" className="hidden cards:inline">
                    Edit
                  </span>
                </Button>
              </Tooltip>
              {!plan.is_default && (
                <Tooltip content="Make default">
                  <Button
                    variant="ghost"
                    size="icon"
                    className="cards:w-auto cards:gap-1.5 cards:px-2 cards:text-sm"
                    aria-label={`Make ${plan.name} the default plan`}
                    disabled={makeDefault.isPending}
                    onClick={() =>
                      makeDefault.mutate(plan.id, {
                        onSuccess: (saved) => toast.success(`New people now get ${saved.name}.`),
                      })
                    }
                  >
                    <Star aria-hidden="true" className="size-4" />
                    <span aria-hidden="true" className="hidden cards:inline">
                      Make default
                    </span>
                  </Button>
                </Tooltip>
              )}
              <DeleteButton label={`Delete ${plan.name}`} onClick={() => setDeleting(plan)} />
            </TableActionsCell>
          </TableRow>
        )}
      </DataTable>

      {editing && (
        <PlanDialog plan={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete Plan"
        message={`Delete the plan ${deleting?.name ?? ''}? A plan someone has, or the default plan, is not deleted.`}
        busy={deletePlan.isPending}
        onConfirm={() =>
          deleting &&
          deletePlan.mutate(deleting.id, {
            onSuccess: () => toast.success(`Plan ${deleting.name} deleted.`),
            onError: (error) => toast.error(actionErrorMessage(error, 'Failed to delete the plan.')),
            onSettled: () => setDeleting(null),
          })
        }
      />
    </>
  );
}
