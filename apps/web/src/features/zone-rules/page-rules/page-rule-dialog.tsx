import type { FieldErrors, Resolver } from 'react-hook-form';
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
  type PageRuleTarget,
} from '@guardian/contract';
import { Field, Input, Select } from '../../../components/ui/input';
import { useAddPageRuleMutation } from '../../../api/page-rules/page-rule-add-mutation';
import { useUpdatePageRuleMutation } from '../../../api/page-rules/page-rule-update-mutation';
import { useZoneSettingsQuery } from '../../../api/zone-settings/zone-settings-query';
import { useDialogForm } from '../../../lib/use-dialog-form';
import { RuleDialog, useSavedAndClosed } from '../rule-dialog';
import { defaultSettingValue, offeredSettings, securityLevelWarning } from './page-rule-editor';
import { PageRuleSettingField } from './page-rule-setting-field';

interface PageRuleDialogProps {
  zoneId: string;
  /** The rule to edit; none to add a new one. */
  rule: PageRule | null;
  onClose: () => void;
}

/** What the editor holds: the URL pattern alone, and the settings in their order. */
interface PageRuleFields {
  urlPattern: string;
  actions: PageRuleAction[];
}

const checkRule = addPageRuleRequestSchema.pick({ targets: true, actions: true });
type CheckedPageRule = ReturnType<typeof checkRule.parse>;

/**
 * Shapes the fields into the contract's request and parses it with the contract's schema. A setting's
 * message goes to its position (`actions.<index>`), a message about the settings as a whole (none
 * chosen) to `actions` itself.
 */
function pageRuleResolver(
  operator: PageRuleTarget['constraint']['operator'],
): Resolver<PageRuleFields, unknown, CheckedPageRule> {
  return (fields) => {
    const parsed = checkRule.safeParse({
      targets: [{ target: 'url', constraint: { operator, value: fields.urlPattern } }],
      actions: fields.actions,
    });
    if (parsed.success) return { values: parsed.data, errors: {} };
    const errors: FieldErrors<PageRuleFields> = {};
    const settings: { type: string; message: string }[] = [];
    let settingsList: { type: string; message: string } | undefined;
    for (const { path, message, code } of parsed.error.issues) {
      const [field, index] = path;
      if (field === 'targets') errors.urlPattern ??= { type: code, message };
      else if (typeof index === 'number') settings[index] ??= { type: code, message };
      else settingsList ??= { type: code, message };
    }
    if (settingsList) errors.actions = settingsList;
    else if (settings.length > 0) errors.actions = settings;
    return { values: {}, errors };
  };
}

/**
 * Add or edit a page rule (spec sections 2 and 4): 'If the URL matches', the list 'Then the settings
 * are', and the dropdown that adds a setting under the catalogue's group rules.
 */
export function PageRuleDialog({ zoneId, rule, onClose }: PageRuleDialogProps) {
  const saved = useSavedAndClosed(onClose);
  const addRule = useAddPageRuleMutation(zoneId);
  const updateRule = useUpdatePageRuleMutation(zoneId);
  // The zone's own Security Level, from Cloudflare: a rule's level starts there and is warned below it.
  const zoneSecurityLevel = useZoneSettingsQuery(zoneId).data?.securityLevel;
  const form = useDialogForm({
    resolver: pageRuleResolver(rule?.targets[0]?.constraint.operator ?? 'matches'),
    defaultValues: { urlPattern: rule ? pageRuleUrlPattern(rule) : '', actions: rule?.actions ?? [] },
    saves: [addRule, updateRule],
    // The server names the request's fields: the URL pattern is its target; a setting's message
    // (`actions.0.value.url`) shows under the setting.
    fieldOf: (field) => (field.startsWith('targets') ? 'urlPattern' : field.split('.').slice(0, 2).join('.')),
  });
  const { errors, isSubmitted } = form.formState;
  const actions = form.watch('actions');
  const settingsListError = errors.actions?.message;

  const offered = offeredSettings(actions);
  const redirectsOnly = actions.some(
    (action) => pageRuleSetting(action.id)?.group === EXCLUSIVE_PAGE_RULE_GROUP,
  );
  const offeredGroups = PAGE_RULE_GROUPS.filter((group) =>
    offered.some((setting) => setting.group === group),
  );

  // After a submit every change re-checks the settings, as typing re-checks the URL pattern.
  const setActions = (next: PageRuleAction[]) =>
    form.setValue('actions', next, { shouldValidate: isSubmitted });
  const addSetting = (id: string) => {
    const setting = pageRuleSetting(id);
    if (setting) setActions([...actions, { id, value: defaultSettingValue(setting, zoneSecurityLevel) }]);
  };
  const changeSetting = (index: number, value: PageRuleActionValue) =>
    setActions(actions.map((action, at) => (at === index ? { ...action, value } : action)));
  const removeSetting = (index: number) => setActions(actions.filter((_, at) => at !== index));

  const submit = form.submitWith((checked) => {
    if (rule) {
      updateRule.mutate({ ...rule, ...checked }, saved('Page rule updated successfully!'));
    } else {
      addRule.mutate(checked, saved('Page rule added successfully!'));
    }
  });

  return (
    <RuleDialog
      ruleName="Page Rule"
      editing={rule !== null}
      addRule={addRule}
      updateRule={updateRule}
      failedToAdd="Failed to add page rule."
      failedToUpdate="Failed to update page rule."
      onClose={onClose}
      onSubmit={submit}
    >
      <Field
        label="If the URL matches"
        required
        error={errors.urlPattern?.message}
        hint="Use * as a wildcard, e.g. example.com/images/*"
      >
        {(control) => <Input {...control} {...form.register('urlPattern')} placeholder="example.com/*" />}
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
                error={errors.actions?.[index]?.message}
                warning={securityLevelWarning(action, zoneSecurityLevel)}
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
          invalid={Boolean(settingsListError)}
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
        {settingsListError && <p className="text-sm text-danger">{settingsListError}</p>}
      </section>
    </RuleDialog>
  );
}
