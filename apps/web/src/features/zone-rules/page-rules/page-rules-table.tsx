import { pageRuleUrlPattern, type PageRule } from '@guardian/contract';
import { Badge } from '../../../components/ui/badge';
import { RuleButtons } from '../rules-tab';
import { DataTable, TableActionsCell, TableCell, TableRow } from '../../../components/ui/table';
import { describePageRuleAction } from './page-rule-editor';

interface PageRulesTableProps {
  /** Undefined while the first load runs. */
  rules: PageRule[] | undefined;
  /** The id of the rule whose status is being changed. */
  togglingId: string | null;
  onToggle: (rule: PageRule) => void;
  onEdit: (rule: PageRule) => void;
  onDelete: (rule: PageRule) => void;
}

/** Page rules by ascending priority: Priority, URL Pattern, Actions, Status, Actions (spec section 2). */
export function PageRulesTable({ rules, togglingId, onToggle, onEdit, onDelete }: PageRulesTableProps) {
  return (
    <DataTable
      caption="Page rules"
      columns={[
        { label: 'Priority', className: 'w-24' },
        'URL Pattern',
        'Actions',
        'Status',
        { label: 'Actions', className: 'text-right' },
      ]}
      loadingText="Loading Page Rules..."
      rows={rules}
      empty="No page rules found."
    >
      {(rule) => (
        <TableRow key={rule.id}>
          <TableCell label="Priority" className="font-medium tabular-nums">
            {rule.priority}
          </TableCell>
          <TableCell label="URL Pattern" className="min-w-56 font-medium break-words">
            {pageRuleUrlPattern(rule)}
          </TableCell>
          <TableCell label="Actions" className="min-w-64">
            <ul className="space-y-0.5 text-ink-muted">
              {rule.actions.map((action) => (
                <li key={action.id} className="break-words">
                  {describePageRuleAction(action)}
                </li>
              ))}
            </ul>
          </TableCell>
          <TableCell label="Status">
            <Badge tone={rule.status === 'active' ? 'green' : 'grey'}>
              {rule.status === 'active' ? 'Active' : 'Disabled'}
            </Badge>
          </TableCell>
          <TableActionsCell label="Actions" align="end">
            <RuleButtons
              toggling={togglingId === rule.id}
              onToggle={() => onToggle(rule)}
              onEdit={() => onEdit(rule)}
              onDelete={() => onDelete(rule)}
            />
          </TableActionsCell>
        </TableRow>
      )}
    </DataTable>
  );
}
