import { useState } from 'react';
import {
  EXCLUSIVE_PAGE_RULE_GROUP,
  PAGE_RULE_GROUP_LABELS,
  PAGE_RULE_GROUPS,
  addPageRuleRequestSchema,
  pageRuleSetting,
  pageRuleUrlPattern,
  type PageRule,
  type PageRuleAction,
  type PageRuleActionValue,
} from '@guardian/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Field, Input, Select } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api';
import { useAddPageRuleMutation } from '../../../api/page-rules/page-rule-add-mutation';
import { useUpdatePageRuleMutation } from '../../../api/page-rules/page-rule-update-mutation';
import { defaultSettingValue, offeredSettings } from '../lib/page-rule-editor';
import { PageRuleSettingField } from './page-rule-setting-field';

interface PageRuleDialogProps {
  zoneId: string;
  /** The rule to edit; none to add a new one. */
  rule: PageRule | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

interface FormErrors {
  urlPattern?: string;
  /** By the setting's position in the list. */
  settings: Record<number, string>;
  /** About the settings as a whole (none chosen). */
  settingsList?: string;
}

const checkRule = addPageRuleRequestSchema.pick({ targets: true, actions: true });

/**
 * Add or edit a page rule (spec sections 2 and 4): 'If the URL matches', the list 'Then the settings
 * are', and the dropdown that adds a setting under the catalogue's group rules.
 */
export function PageRuleDialog({ zoneId, rule, open, onOpenChange }: PageRuleDialogProps) {
  const toast = useToast();
  const addRule = useAddPageRuleMutation(zoneId);
  const updateRule = useUpdatePageRuleMutation(zoneId);
  const editing = rule !== null;
  const saving = addRule.isPending || updateRule.isPending;

  const [urlPattern, setUrlPattern] = useState(rule ? pageRuleUrlPattern(rule) : '');
  const [actions, setActions] = useState<PageRuleAction[]>(rule?.actions ?? []);
  const [errors, setErrors] = useState<FormErrors>({ settings: {} });
  const [saveError, setSaveError] = useState<string | null>(null);

  const offered = offeredSettings(actions);
  const redirectsOnly = actions.some(
    (action) => pageRuleSetting(action.id)?.group === EXCLUSIVE_PAGE_RULE_GROUP,
  );
  const offeredGroups = PAGE_RULE_GROUPS.filter((group) =>
    offered.some((setting) => setting.group === group),
  );

  const addSetting = (id: string) => {
    const setting = pageRuleSetting(id);
    if (setting) setActions((current) => [...current, { id, value: defaultSettingValue(setting) }]);
  };
  const changeSetting = (index: number, value: PageRuleActionValue) =>
    setActions((current) => current.map((action, at) => (at === index ? { ...action, value } : action)));
  const removeSetting = (index: number) => {
    setActions((current) => current.filter((_, at) => at !== index));
    setErrors((current) => ({ ...current, settings: {} }));
  };

  const submit = () => {
    const operator = rule?.targets[0]?.constraint.operator ?? 'matches';
    const parsed = checkRule.safeParse({
      targets: [{ target: 'url', constraint: { operator, value: urlPattern } }],
      actions,
    });
    if (!parsed.success) {
      const next: FormErrors = { settings: {} };
      for (const { path, message } of parsed.error.issues) {
        const [field, index] = path;
        if (field === 'targets') next.urlPattern ??= message;
        else if (typeof index === 'number') next.settings[index] ??= message;
        else next.settingsList ??= message;
      }
      setErrors(next);
      return;
    }
    setErrors({ settings: {} });
    setSaveError(null);
    const { targets, actions: checkedActions } = parsed.data;
    if (rule) {
      updateRule.mutate(
        { ...rule, targets, actions: checkedActions },
        {
          onSuccess: () => {
            toast.success('Page rule updated successfully!');
            onOpenChange(false);
          },
          onError: (error) => setSaveError(errorMessage(error, 'Failed to update page rule.')),
        },
      );
    } else {
      addRule.mutate(
        { targets, actions: checkedActions },
        {
          onSuccess: () => {
            toast.success('Page rule added successfully!');
            onOpenChange(false);
          },
          onError: (error) => setSaveError(errorMessage(error, 'Failed to add page rule.')),
        },
      );
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={editing ? 'Edit Page Rule' : 'Add Page Rule'}
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
      <Field
        label="If the URL matches"
        required
        error={errors.urlPattern}
        hint="Use * as a wildcard, e.g. example.com/images/*"
      >
        {(control) => (
          <Input
            {...control}
            value={urlPattern}
            placeholder="example.com/*"
            onChange={(event) => setUrlPattern(event.target.value)}
          />
        )}
      </Field>

      <section aria-labelledby="page-rule-settings-heading" className="space-y-3">
        <h3 id="page-rule-settings-heading" className="text-sm font-medium text-ink">
          Then the settings are
        </h3>
        {actions.length > 0 && (
          <ul className="space-y-2">
            {actions.map((action, index) => (
              <PageRuleSettingField
                key={action.id}
                action={action}
                error={errors.settings[index]}
                onChange={(value) => changeSetting(index, value)}
                onRemove={() => removeSetting(index)}
              />
            ))}
          </ul>
        )}
        <Select
          aria-label="Add a setting"
          value=""
          disabled={offered.length === 0}
          invalid={Boolean(errors.settingsList)}
          onChange={(event) => addSetting(event.target.value)}
        >
          <option value="">Select a setting to add...</option>
          {offeredGroups.map((group) => (
            <optgroup key={group} label={PAGE_RULE_GROUP_LABELS[group]}>
              {offered
                .filter((setting) => setting.group === group)
                .map((setting) => (
                  <option key={setting.id} value={setting.id}>
                    {setting.label}
                  </option>
                ))}
            </optgroup>
          ))}
        </Select>
        {redirectsOnly && (
          <p className="text-xs text-ink-muted">A forwarding rule cannot have other settings.</p>
        )}
        {errors.settingsList && <p className="text-sm text-danger">{errors.settingsList}</p>}
      </section>

      {saveError && <ErrorMessage>{saveError}</ErrorMessage>}
    </Dialog>
  );
}
