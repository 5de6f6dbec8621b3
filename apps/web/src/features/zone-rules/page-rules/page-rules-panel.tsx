import { pageRuleUrlPattern, type PageRule } from '@guardian/contract';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { useDeletePageRuleMutation } from '../../../api/page-rules/page-rule-delete-mutation';
import { useUpdatePageRuleMutation } from '../../../api/page-rules/page-rule-update-mutation';
import { usePageRulesQuery } from '../../../api/page-rules/page-rules-query';
import { PageRuleDialog } from './page-rule-dialog';
import { PageRulesTable } from './page-rules-table';
import { RulesTab, useRuleDelete } from '../rules-tab';

/** The Page Rules tab (spec sections 2 and 4). */
export function PageRulesPanel({ zoneId }: { zoneId: string }) {
  const toast = useToast();
  const rules = usePageRulesQuery(zoneId);
  const updateRule = useUpdatePageRuleMutation(zoneId);
  const deleteRule = useDeletePageRuleMutation(zoneId);

  const toggle = (rule: PageRule) =>
    updateRule.mutate(
      { ...rule, status: rule.status === 'active' ? 'disabled' : 'active' },
      {
        onSuccess: () => toast.success('Rule status updated successfully!'),
        onError: (error) => toast.error(errorMessage(error, 'Failed to update rule status.')),
      },
    );

  const remove = useRuleDelete<PageRule>({
    ruleName: 'Page Rule',
    describe: pageRuleUrlPattern,
    deletedMessage: 'Page rule deleted successfully!',
    remove: (rule) => deleteRule.mutateAsync(rule),
    onError: (error) => toast.error(errorMessage(error, 'Failed to delete page rule.')),
  });

  return (
    <RulesTab
      rules={rules}
      rulesName="page rules"
      addLabel="Add Page Rule"
      table={(edit) => (
        <PageRulesTable
          rules={rules.data}
          togglingId={updateRule.isPending ? (updateRule.variables?.id ?? null) : null}
          onToggle={toggle}
          onEdit={edit}
          onDelete={remove}
        />
      )}
      dialog={(rule, onClose) => <PageRuleDialog zoneId={zoneId} rule={rule} onClose={onClose} />}
    />
  );
}
