import { TriangleAlert, X } from 'lucide-react';
import {
  REDIRECT_CODES,
  pageRuleSetting,
  type ForwardingUrlValue,
  type PageRuleAction,
  type PageRuleActionValue,
  type PageRuleSetting,
} from '@guardian/contract';
import { Button } from '../../../components/ui/button';
import { Switch } from '../../../components/ui/checkbox';
import { Field, Input, Select } from '../../../components/ui/input';

/** The editor's forwarding value, which may still lack its URL (the form reports that on save). */
function forwardingOf(value: PageRuleActionValue | undefined): ForwardingUrlValue {
  if (typeof value === 'object' && value !== null && 'url' in value && typeof value.url === 'string') {
    return { status_code: value.status_code === 302 ? 302 : 301, url: value.url };
  }
  return { status_code: REDIRECT_CODES[0], url: '' };
}

const REDIRECT_LABELS: Record<(typeof REDIRECT_CODES)[number], string> = {
  301: '301 - Permanent Redirect',
  302: '302 - Temporary Redirect',
};

interface PageRuleSettingFieldProps {
  action: PageRuleAction;
  /** The message of a missing or wrong value. */
  error?: string;
  /** What a valid but risky value does (a Security Level below the zone's). */
  warning?: string | null;
  onChange: (value: PageRuleActionValue) => void;
  onRemove: () => void;
}

/** One setting of the page-rule editor: its control by kind, and a button to remove it. */
export function PageRuleSettingField({
  action,
  error,
  warning,
  onChange,
  onRemove,
}: PageRuleSettingFieldProps) {
  const setting = pageRuleSetting(action.id);
  const label = setting?.label ?? action.id;
  return (
    <li className="flex items-start gap-2 rounded-control border border-line bg-canvas/40 p-3">
      <div className="min-w-0 flex-1">
        {setting ? (
          <SettingControl
            setting={setting}
            value={action.value}
            error={error}
            warning={warning}
            onChange={onChange}
          />
        ) : (
          <div className="space-y-1">
            <p className="text-sm font-medium text-ink">{label}</p>
            <p className="text-xs text-ink-muted">Set at Cloudflare; kept as it is.</p>
            <code className="block font-mono text-xs break-all text-ink-muted">
              {JSON.stringify(action.value ?? null)}
            </code>
          </div>
        )}
      </div>
      <Button variant="ghost" size="icon" aria-label={`Remove ${label}`} onClick={onRemove}>
        <X aria-hidden="true" className="size-4" />
      </Button>
    </li>
  );
}

interface SettingControlProps {
  setting: PageRuleSetting;
  value: PageRuleActionValue | undefined;
  error?: string;
  warning?: string | null;
  onChange: (value: PageRuleActionValue) => void;
}

/** A warning under a control, read with it (the Field's hint describes the control). */
function warningHint(warning: string | null | undefined) {
  return warning ? (
    <span className="flex items-start gap-1.5 text-sm text-warning">
      <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      {warning}
    </span>
  ) : undefined;
}

function SettingControl({ setting, value, error, warning, onChange }: SettingControlProps) {
  switch (setting.kind) {
    case 'toggle':
      return (
        <div className="py-1.5">
          <Switch
            label={setting.label}
            checked={value === 'on'}
            onCheckedChange={(checked) => onChange(checked ? 'on' : 'off')}
            stateLabels={{ on: 'On', off: 'Off' }}
          />
        </div>
      );
    case 'select': {
      const options = setting.options ?? [];
      // A value set elsewhere that the catalogue does not offer is still shown, as Cloudflare names it.
      const listed = options.some((option) => option.value === value);
      return (
        <Field label={setting.label} error={error} hint={warningHint(warning)}>
          {(control) => (
            <Select
              {...control}
              value={String(value ?? '')}
              onChange={(event) => {
                const chosen = options.find((option) => String(option.value) === event.target.value);
                onChange(chosen ? chosen.value : event.target.value);
              }}
            >
              {!listed && value !== undefined && <option value={String(value)}>{String(value)}</option>}
              {options.map((option) => (
                <option key={option.value} value={String(option.value)}>
                  {option.label}
                </option>
              ))}
            </Select>
          )}
        </Field>
      );
    }
    case 'number':
    case 'text':
      return (
        <Field label={setting.label} required error={error}>
          {(control) => (
            <Input
              {...control}
              type={setting.kind === 'number' ? 'number' : 'text'}
              min={setting.kind === 'number' ? 0 : undefined}
              inputMode={setting.kind === 'number' ? 'numeric' : undefined}
              value={typeof value === 'string' || typeof value === 'number' ? value : ''}
              onChange={(event) => onChange(event.target.value)}
            />
          )}
        </Field>
      );
    case 'forwarding': {
      const forwarding = forwardingOf(value);
      return (
        <fieldset className="space-y-3">
          <legend className="mb-2 text-sm font-medium text-ink">{setting.label}</legend>
          <Field label="Status code">
            {(control) => (
              <Select
                {...control}
                value={String(forwarding.status_code)}
                onChange={(event) =>
                  onChange({ ...forwarding, status_code: Number(event.target.value) === 302 ? 302 : 301 })
                }
              >
                {REDIRECT_CODES.map((code) => (
                  <option key={code} value={code}>
                    {REDIRECT_LABELS[code]}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Destination URL" required error={error}>
            {(control) => (
              <Input
                {...control}
                type="url"
                value={forwarding.url}
                placeholder="https://www.example.com/$1"
                onChange={(event) => onChange({ ...forwarding, url: event.target.value })}
              />
            )}
          </Field>
        </fieldset>
      );
    }
  }
}
