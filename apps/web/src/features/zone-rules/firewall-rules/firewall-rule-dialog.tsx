import { zodResolver } from '@hookform/resolvers/zod';
import { ExternalLink } from 'lucide-react';
import {
  DEFAULT_FIREWALL_ACTION,
  FIREWALL_ACTION_LABELS,
  FIREWALL_ACTIONS,
  RULES_LANGUAGE_URL,
  firewallRuleFormSchema,
  type FirewallRule,
  type FirewallRuleAction,
} from '@guardian/contract';
import { Field, Input, Select, Textarea } from '../../../components/ui/input';
import { useAddFirewallRuleMutation } from '../../../api/firewall-rules/firewall-rule-add-mutation';
import { useUpdateFirewallRuleMutation } from '../../../api/firewall-rules/firewall-rule-update-mutation';
import { useDialogForm } from '../../../lib/use-dialog-form';
import { RuleDialog, useSavedAndClosed } from '../rule-dialog';

interface FirewallRuleDialogProps {
  zoneId: string;
  /** The rule to edit; none to add a new one. */
  rule: FirewallRule | null;
  onClose: () => void;
}

/** Add or edit a firewall rule (spec section 2): Description, Expression with its help link, Action. */
export function FirewallRuleDialog({ zoneId, rule, onClose }: FirewallRuleDialogProps) {
  const saved = useSavedAndClosed(onClose);
  const addRule = useAddFirewallRuleMutation(zoneId);
  const updateRule = useUpdateFirewallRuleMutation(zoneId);
  const form = useDialogForm({
    // The grammar is checked here too, so a slip shows at the field before any request.
    resolver: zodResolver(firewallRuleFormSchema(rule?.filter.expression)),
    defaultValues: {
      description: rule?.description ?? '',
      action: rule?.action ?? DEFAULT_FIREWALL_ACTION,
      filter: { expression: rule?.filter.expression ?? '' },
    },
    saves: [addRule, updateRule],
  });
  const { errors } = form.formState;
  const action = form.watch('action') ?? DEFAULT_FIREWALL_ACTION;

  // `log` is never offered, but an existing log rule keeps showing its action.
  const offered: readonly FirewallRuleAction[] = FIREWALL_ACTIONS;
  const actions = offered.includes(action) ? offered : [...offered, action];

  const submit = form.submitWith((fields) => {
    if (rule) {
      const edited = { ...rule, description: fields.description, action: fields.action };
      updateRule.mutate(
        { ...edited, filter: { ...rule.filter, expression: fields.filter.expression } },
        saved('Firewall rule updated successfully!'),
      );
    } else {
      addRule.mutate(
        { description: fields.description, action: fields.action, expression: fields.filter.expression },
        saved('Firewall rule added and priorities updated!'),
      );
    }
  });

  return (
    <RuleDialog
      ruleName="Firewall Rule"
      editing={rule !== null}
      addRule={addRule}
      updateRule={updateRule}
      failedToAdd="Failed to add rule."
      failedToUpdate="Failed to update rule."
      onClose={onClose}
      onSubmit={submit}
    >
      <Field label="Description" required error={errors.description?.message}>
        {(control) => (
          <Input
            {...control}
            {...form.register('description')}
            maxLength={500}
            placeholder="Block traffic from bad actors"
          />
        )}
      </Field>
      <Field
        label="Expression"
        required
        error={errors.filter?.expression?.message ?? errors.filter?.message}
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
            {...form.register('filter.expression')}
            rows={4}
            spellCheck={false}
            className="font-mono text-xs"
            placeholder='(ip.src in {192.0.2.0/24}) or (http.request.uri.path contains "/admin")'
          />
        )}
      </Field>
      <Field label="Action">
        {(control) => (
          <Select {...control} {...form.register('action')}>
            {actions.map((value) => (
              <option key={value} value={value}>
                {FIREWALL_ACTION_LABELS[value]}
              </option>
            ))}
          </Select>
        )}
      </Field>
    </RuleDialog>
  );
}
