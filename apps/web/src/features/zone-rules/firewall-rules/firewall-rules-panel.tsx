import { useState } from 'react';
import type { FirewallRule } from '@guardian/contract';
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
import { RulesTab, useRuleDelete } from '../rules-tab';

/** The Firewall Rules tab (spec sections 2 and 4). */
export function FirewallRulesPanel({ zoneId }: { zoneId: string }) {
  const toast = useToast();
  const rules = useFirewallRulesQuery(zoneId);
  const updateRule = useUpdateFirewallRuleMutation(zoneId);
  const deleteRule = useDeleteFirewallRuleMutation(zoneId);
  const reorder = useReorderFirewallRulesMutation(zoneId);
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

  const deleteWithConfirm = useRuleDelete<FirewallRule>({
    ruleName: 'Firewall Rule',
    describe: (rule) => rule.description,
    deletedMessage: 'Firewall rule deleted successfully!',
    remove: (rule) => deleteRule.mutateAsync(rule),
    onError: (error) => setViewError(errorMessage(error, 'Failed to delete rule.')),
  });
  const remove = async (rule: FirewallRule) => {
    // A rule without a filter cannot be deleted by its filter id (spec section 5).
    if (rule.filter?.id) await deleteWithConfirm(rule);
  };

  const move = (from: number, to: number) => {
    if (!rules.data) return;
    reorder.mutate(moveFirewallRule(rules.data, from, to), {
      onSuccess: () => toast.success('Rule order updated successfully!'),
      onError: (error) => toast.error(errorMessage(error, 'Failed to update rule priorities.')),
    });
  };

  return (
    <RulesTab
      rules={rules}
      rulesName="firewall rules"
      addLabel="Add Firewall Rule"
      // The spec replaces the view with a toggle's or delete's error; Retry brings the rules back, read again.
      replacement={
        viewError && (
          <ErrorMessage
            onRetry={() => {
              setViewError(null);
              void rules.refetch();
            }}
          >
            {viewError}
          </ErrorMessage>
        )
      }
      table={(edit) => (
        <FirewallRulesTable
          rules={rules.data}
          saving={reorder.isPending}
          togglingId={updateRule.isPending ? (updateRule.variables?.id ?? null) : null}
          onMove={move}
          onToggle={toggle}
          onEdit={edit}
          onDelete={remove}
        />
      )}
      dialog={(rule, onClose) => <FirewallRuleDialog zoneId={zoneId} rule={rule} onClose={onClose} />}
    />
  );
}
