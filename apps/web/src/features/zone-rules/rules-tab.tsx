import { Fragment, useState, type ReactNode } from 'react';
import { Plus } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { useConfirm } from '../../components/ui/confirm-dialog';
import { ErrorMessage } from '../../components/ui/error-message';
import { useToast } from '../../components/ui/toast';
import { errorMessage } from '../../lib/api';

/** The dialog being shown: adding (no rule), or editing one rule. */
type Editing<R> = { rule: R | null } | null;

interface RulesTabProps<R extends { id: string }> {
  /** The tab's rules as read from Cloudflare: a failed read replaces the tab. */
  rules: { data?: R[]; isError: boolean; error: unknown; refetch: () => Promise<unknown> };
  /** The rules' name in a failed read's message: 'firewall rules'. */
  rulesName: string;
  /** The add button's text: 'Add Firewall Rule'. */
  addLabel: string;
  /** Shown instead of the tab while set (a failed toggle's or delete's message); the tab keeps its state. */
  replacement?: ReactNode;
  /** The rules' table; `edit` opens the dialog on a rule. */
  table: (edit: (rule: R) => void) => ReactNode;
  /** The add (no rule) or edit dialog, and how it closes. */
  dialog: (rule: R | null, onClose: () => void) => ReactNode;
}

/** A tab of a zone's rules (spec sections 2 and 4): its Add button over its table, and the add or edit dialog. */
export function RulesTab<R extends { id: string }>({
  rules,
  rulesName,
  addLabel,
  replacement,
  table,
  dialog,
}: RulesTabProps<R>) {
  const [editing, setEditing] = useState<Editing<R>>(null);

  if (replacement) return replacement;
  if (rules.isError) {
    return (
      <ErrorMessage onRetry={() => void rules.refetch()}>
        {`Failed to fetch ${rulesName}: ${errorMessage(rules.error, 'An unknown error occurred.')}`}
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
          {addLabel}
        </Button>
      </div>
      {table((rule) => setEditing({ rule }))}
      {editing && (
        <Fragment key={editing.rule?.id ?? 'new'}>{dialog(editing.rule, () => setEditing(null))}</Fragment>
      )}
    </div>
  );
}

interface RuleButtonsProps {
  /** The rule's status is being changed. */
  toggling: boolean;
  onToggle: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

/** A rule row's actions: Toggle Status, Edit, Delete. */
export function RuleButtons({ toggling, onToggle, onEdit, onDelete }: RuleButtonsProps) {
  return (
    <>
      <Button size="sm" variant="secondary" loading={toggling} onClick={onToggle}>
        Toggle Status
      </Button>
      <Button size="sm" variant="secondary" onClick={onEdit}>
        Edit
      </Button>
      <Button size="sm" variant="danger" onClick={onDelete}>
        Delete
      </Button>
    </>
  );
}

interface RuleDeleteOptions<R> {
  /** 'Firewall Rule': the confirmation's title is 'Delete Firewall Rule'. */
  ruleName: string;
  /** What the confirmation calls the rule: its description, its URL pattern. */
  describe: (rule: R) => string;
  /** Said once the rule is gone. */
  deletedMessage: string;
  remove: (rule: R) => Promise<unknown>;
  onError: (error: unknown) => void;
}

/** Deleting a rule: asked first, said after; a failure goes to `onError`. */
export function useRuleDelete<R>({
  ruleName,
  describe,
  deletedMessage,
  remove,
  onError,
}: RuleDeleteOptions<R>) {
  const confirm = useConfirm();
  const toast = useToast();
  return async (rule: R) => {
    try {
      const deleted = await confirm({
        title: `Delete ${ruleName}`,
        message: `Are you sure you want to delete the rule "${describe(rule)}"? This action cannot be undone.`,
        action: () => remove(rule),
      });
      if (deleted) toast.success(deletedMessage);
    } catch (error) {
      onError(error);
    }
  };
}
