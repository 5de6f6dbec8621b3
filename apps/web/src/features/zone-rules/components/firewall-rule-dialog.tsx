import { useState } from 'react';
import { ExternalLink } from 'lucide-react';
import {
  DEFAULT_FIREWALL_ACTION,
  FIREWALL_ACTION_LABELS,
  FIREWALL_ACTIONS,
  RULES_LANGUAGE_URL,
  firewallRuleInputSchema,
  type FirewallRule,
  type FirewallRuleAction,
} from '@guardian/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Field, Input, Select, Textarea } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { useAddFirewallRuleMutation } from '../../../api/firewall-rules/firewall-rule-add-mutation';
import { useUpdateFirewallRuleMutation } from '../../../api/firewall-rules/firewall-rule-update-mutation';

interface FirewallRuleDialogProps {
  zoneId: string;
  /** The rule to edit; none to add a new one. */
  rule: FirewallRule | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

interface FieldErrors {
  description?: string;
  expression?: string;
}

/** Add or edit a firewall rule (spec section 2): Description, Expression with its help link, Action. */
export function FirewallRuleDialog({ zoneId, rule, open, onOpenChange }: FirewallRuleDialogProps) {
  const toast = useToast();
  const addRule = useAddFirewallRuleMutation(zoneId);
  const updateRule = useUpdateFirewallRuleMutation(zoneId);
  const editing = rule !== null;
  const saving = addRule.isPending || updateRule.isPending;

  const [description, setDescription] = useState(rule?.description ?? '');
  const [expression, setExpression] = useState(rule?.filter.expression ?? '');
  const [action, setAction] = useState<FirewallRuleAction>(rule?.action ?? DEFAULT_FIREWALL_ACTION);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saveError, setSaveError] = useState<string | null>(null);

  // `log` is never offered, but an existing log rule keeps showing its action.
  const offered: readonly FirewallRuleAction[] = FIREWALL_ACTIONS;
  const actions = offered.includes(action) ? offered : [...offered, action];

  const submit = () => {
    const parsed = firewallRuleInputSchema.safeParse({ description, action, filter: { expression } });
    if (!parsed.success) {
      const next: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        if (issue.path[0] === 'description') next.description ??= issue.message;
        if (issue.path[0] === 'filter') next.expression ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    setSaveError(null);
    const fields = parsed.data;
    if (rule) {
      const edited = { ...rule, description: fields.description, action: fields.action };
      updateRule.mutate(
        { ...edited, filter: { ...rule.filter, expression: fields.filter.expression } },
        {
          onSuccess: () => onOpenChange(false),
          onError: (error) => setSaveError(errorMessage(error, 'Failed to update rule.')),
        },
      );
    } else {
      addRule.mutate(
        { description: fields.description, action: fields.action, expression: fields.filter.expression },
        {
          onSuccess: () => {
            toast.success('Firewall rule added and priorities updated!');
            onOpenChange(false);
          },
          onError: (error) => setSaveError(errorMessage(error, 'Failed to add rule.')),
        },
      );
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={editing ? 'Edit Firewall Rule' : 'Add Firewall Rule'}
      size="lg"
      busy={saving}
      onSubmit={submit}
      footer={
        <>
          <Button variant="secondary" disabled={saving} onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            {editing ? (saving ? 'Saving...' : 'Save Changes') : saving ? 'Adding...' : 'Add Rule'}
          </Button>
        </>
      }
    >
      <Field label="Description" required error={errors.description}>
        {(control) => (
          <Input
            {...control}
            value={description}
            maxLength={500}
            placeholder="Block traffic from bad actors"
            onChange={(event) => setDescription(event.target.value)}
          />
        )}
      </Field>
      <Field
        label="Expression"
        required
        error={errors.expression}
        hint={
          <a
            href={RULES_LANGUAGE_URL}
            target="_blank"
            rel="noopener"
            className="inline-flex items-center gap-1 font-medium text-brand hover:text-brand-hover hover:underline"
          >
            Expression help: the Rules language
            <ExternalLink aria-hidden="true" className="size-3" />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        }
      >
        {(control) => (
          <Textarea
            {...control}
            value={expression}
            rows={4}
            spellCheck={false}
            className="font-mono text-xs"
            placeholder='(ip.src in {192.0.2.0/24}) or (http.request.uri.path contains "/admin")'
            onChange={(event) => setExpression(event.target.value)}
          />
        )}
      </Field>
      <Field label="Action">
        {(control) => (
          <Select
            {...control}
            value={action}
            onChange={(event) => setAction(event.target.value as FirewallRuleAction)}
          >
            {actions.map((value) => (
              <option key={value} value={value}>
                {FIREWALL_ACTION_LABELS[value]}
              </option>
            ))}
          </Select>
        )}
      </Field>
      {saveError && <ErrorMessage>{saveError}</ErrorMessage>}
    </Dialog>
  );
}
