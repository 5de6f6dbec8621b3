import { useState } from 'react';
import { Plus } from 'lucide-react';
import { pageRuleUrlPattern, type PageRule } from '@guardian/contract';
import { Button } from '../../../components/ui/button';
import { useConfirm } from '../../../components/ui/confirm-dialog';
import { ErrorMessage } from '../../../components/ui/error-message';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { useDeletePageRuleMutation } from '../../../api/page-rules/page-rule-delete-mutation';
import { useUpdatePageRuleMutation } from '../../../api/page-rules/page-rule-update-mutation';
import { usePageRulesQuery } from '../../../api/page-rules/page-rules-query';
import { PageRuleDialog } from './page-rule-dialog';
import { PageRulesTable } from './page-rules-table';

/** The dialog being shown: adding, or editing one rule. */
type Editing = { rule: PageRule | null } | null;

/** The Page Rules tab (spec sections 2 and 4). */
export function PageRulesPanel({ zoneId }: { zoneId: string }) {
  const toast = useToast();
  const confirm = useConfirm();
  const rules = usePageRulesQuery(zoneId);
  const updateRule = useUpdatePageRuleMutation(zoneId);
  const deleteRule = useDeletePageRuleMutation(zoneId);
  const [editing, setEditing] = useState<Editing>(null);

  const toggle = (rule: PageRule) =>
    updateRule.mutate(
      { ...rule, status: rule.status === 'active' ? 'disabled' : 'active' },
      {
        onSuccess: () => toast.success('Rule status updated successfully!'),
        onError: (error) => toast.error(errorMessage(error, 'Failed to update rule status.')),
      },
    );

  const remove = async (rule: PageRule) => {
    try {
      const deleted = await confirm({
        title: 'Delete Page Rule',
        message: `Are you sure you want to delete the rule "${pageRuleUrlPattern(rule)}"? This action cannot be undone.`,
        confirmLabel: 'Delete',
        busyLabel: 'Deleting...',
        action: () => deleteRule.mutateAsync(rule),
      });
      if (deleted) toast.success('Page rule deleted successfully!');
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to delete page rule.'));
    }
  };

  if (rules.isError) {
    return (
      <ErrorMessage onRetry={() => void rules.refetch()}>
        Failed to fetch page rules: {errorMessage(rules.error, 'An unknown error occurred.')}
      </ErrorMessage>
    );
  }

  return (
    <div className="space-y-4">
      <div className="flex justify-end">
        <Button
          icon={<Plus aria-hidden="true" className="size-4" />}
          onClick={() => setEditing({ rule: null })}
        >
          Add Page Rule
        </Button>
      </div>
      <PageRulesTable
        rules={rules.data}
        togglingId={updateRule.isPending ? (updateRule.variables?.id ?? null) : null}
        onToggle={toggle}
        onEdit={(rule) => setEditing({ rule })}
        onDelete={remove}
      />
      {editing && (
        <PageRuleDialog
          key={editing.rule?.id ?? 'new'}
          zoneId={zoneId}
          rule={editing.rule}
          open
          onOpenChange={(open) => !open && setEditing(null)}
        />
      )}
    </div>
  );
}
