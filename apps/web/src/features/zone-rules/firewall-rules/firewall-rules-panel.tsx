import { useState } from 'react';
import { Plus } from 'lucide-react';
import type { FirewallRule } from '@guardian/contract';
import { Button } from '../../../components/ui/button';
import { useConfirm } from '../../../components/ui/confirm-dialog';
import { ErrorMessage } from '../../../components/ui/error-message';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { useDeleteFirewallRuleMutation } from '../../../api/firewall-rules/firewall-rule-delete-mutation';
import { useUpdateFirewallRuleMutation } from '../../../api/firewall-rules/firewall-rule-update-mutation';
import { useFirewallRulesQuery } from '../../../api/firewall-rules/firewall-rules-query';
import { useReorderFirewallRulesMutation } from '../../../api/firewall-rules/firewall-rules-reorder-mutation';
import { moveFirewallRule } from './firewall-rule-order';
import { FirewallRuleDialog } from './firewall-rule-dialog';
import { FirewallRulesTable } from './firewall-rules-table';

/** The dialog being shown: adding, or editing one rule. */
type Editing = { rule: FirewallRule | null } | null;

/** The Firewall Rules tab (spec sections 2 and 4). */
export function FirewallRulesPanel({ zoneId }: { zoneId: string }) {
  const toast = useToast();
  const confirm = useConfirm();
  const rules = useFirewallRulesQuery(zoneId);
  const updateRule = useUpdateFirewallRuleMutation(zoneId);
  const deleteRule = useDeleteFirewallRuleMutation(zoneId);
  const reorder = useReorderFirewallRulesMutation(zoneId);
  const [editing, setEditing] = useState<Editing>(null);
  // A failed toggle or delete replaces the view with its message (spec section 8).
  const [viewError, setViewError] = useState<string | null>(null);

  const toggle = (rule: FirewallRule) =>
    updateRule.mutate(
      { ...rule, paused: !rule.paused },
      {
        onSuccess: () => toast.success('Rule status updated successfully!'),
        onError: (error) => setViewError(errorMessage(error, 'Failed to update rule status.')),
      },
    );

  const remove = async (rule: FirewallRule) => {
    // A rule without a filter cannot be deleted by its filter id (spec section 5).
    if (!rule.filter?.id) return;
    try {
      const deleted = await confirm({
        title: 'Delete Firewall Rule',
        message: `Are you sure you want to delete the rule "${rule.description}"? This action cannot be undone.`,
        confirmLabel: 'Delete',
        busyLabel: 'Deleting...',
        action: () => deleteRule.mutateAsync(rule),
      });
      if (deleted) toast.success('Firewall rule deleted successfully!');
    } catch (error) {
      setViewError(errorMessage(error, 'Failed to delete rule.'));
    }
  };

  const move = (from: number, to: number) => {
    if (!rules.data) return;
    reorder.mutate(moveFirewallRule(rules.data, from, to), {
      onSuccess: () => toast.success('Rule order updated successfully!'),
      onError: (error) => toast.error(errorMessage(error, 'Failed to update rule priorities.')),
    });
  };

  // The spec replaces the view with a toggle's or delete's error; Retry brings the rules back, read again.
  if (viewError) {
    return (
      <ErrorMessage
        onRetry={() => {
          setViewError(null);
          void rules.refetch();
        }}
      >
        {viewError}
      </ErrorMessage>
    );
  }
  if (rules.isError) {
    return (
      <ErrorMessage onRetry={() => void rules.refetch()}>
        Failed to fetch firewall rules: {errorMessage(rules.error, 'An unknown error occurred.')}
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
          Add Firewall Rule
        </Button>
      </div>
      <FirewallRulesTable
        rules={rules.data}
        saving={reorder.isPending}
        togglingId={updateRule.isPending ? (updateRule.variables?.id ?? null) : null}
        onMove={move}
        onToggle={toggle}
        onEdit={(rule) => setEditing({ rule })}
        onDelete={remove}
      />
      {editing && (
        <FirewallRuleDialog
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
