import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Clock, LockKeyhole, Mail, Send, type LucideIcon } from 'lucide-react';
import {
  EMAIL_MAX_LENGTH,
  SETTING_LABELS,
  SETTING_RANGES,
  SMTP_HOST_MAX_LENGTH,
  SMTP_PASSWORD_MAX_LENGTH,
  SMTP_SENDER_MAX_LENGTH,
  SMTP_TLS_LABELS,
  SMTP_TLS_MODES,
  SMTP_USER_MAX_LENGTH,
  type RangedSetting,
  type SettingName,
  type SystemSettings,
  type SystemSettingsUpdate,
  type SystemSettingsValues,
} from '@guardian/contract';
import { Button, FormSaveButton } from '../../components/ui/button';
import { Card, CardTitle } from '../../components/ui/card';
import { Checkbox } from '../../components/ui/checkbox';
import { ErrorMessage } from '../../components/ui/error-message';
import { Field, Input, Select } from '../../components/ui/input';
import { PageHeader } from '../../components/ui/page-header';
import { PageSpinner } from '../../components/ui/spinner';
import { useToast } from '../../components/ui/toast';
import { ApiError, actionErrorMessage, errorMessage } from '../../lib/api';
import {
  useSaveSystemSettingsMutation,
  useSystemSettingsQuery,
  useTestEmailMutation,
} from '../../api/system-settings/system-settings';
import { NotificationChannelsSection } from './notification-channels';

type FormValues = Omit<
  SystemSettingsValues,
  'smtp_password_set' | 'smtp_host' | 'smtp_user' | 'smtp_sender'
> & {
  smtp_host: string;
  smtp_user: string;
  smtp_sender: string;
  /** Typed to replace the stored one; empty keeps it. */
  smtp_password: string;
};

const formOf = ({ values }: SystemSettings): FormValues => ({
  ...values,
  smtp_host: values.smtp_host ?? '',
  smtp_user: values.smtp_user ?? '',
  smtp_sender: values.smtp_sender ?? '',
  smtp_password: '',
});

/** The server's refusal of each field, by its name (a range, a variable that sets it). */
function fieldErrors(error: unknown): Partial<Record<string, string>> {
  if (!(error instanceof ApiError)) return {};
  return Object.fromEntries(
    (error.body?.errors ?? []).filter((entry) => entry.field).map((entry) => [entry.field!, entry.message]),
  );
}

/** Administration > System Setting (/admin/settings): what applies to every server process, audited. */
export default function SystemSettingsScreen() {
  const settings = useSystemSettingsQuery();
  return (
    <>
      <PageHeader
        title="System Setting"
        description="Applied by every Guardian server within seconds, no restart. A setting an environment variable sets is shown here and changed there."
      />
      {settings.isPending ? (
        <PageSpinner />
      ) : settings.isError ? (
        <ErrorMessage>{errorMessage(settings.error, 'Failed to load the system settings.')}</ErrorMessage>
      ) : (
        <SettingsForm settings={settings.data} />
      )}
    </>
  );
}

function Section({
  id,
  icon,
  title,
  description,
  children,
}: {
  id: string;
  icon: LucideIcon;
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card id={id}>
      <CardTitle id={id} icon={icon}>
        {title}
      </CardTitle>
      <p className="mt-1 text-sm text-ink-muted">{description}</p>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">{children}</div>
    </Card>
  );
}

function SettingsForm({ settings }: { settings: SystemSettings }) {
  const save = useSaveSystemSettingsMutation();
  const toast = useToast();
  const form = useForm<FormValues>({ values: formOf(settings) });
  const [removePassword, setRemovePassword] = useState(false);
  const pinned = settings.from_environment;
  const refused = fieldErrors(save.error);
  const { register, formState } = form;

  /** What the field's control needs: disabled when the environment sets it, and the hint saying so. */
  const hintOf = (name: SettingName, more?: string) =>
    pinned[name] ? `Set by the environment variable ${pinned[name]}.` : more;
  const rangeHint = (name: RangedSetting) => {
    const { min, max, unit } = SETTING_RANGES[name];
    return hintOf(name, `${min} to ${max}${unit ? ` ${unit}` : ''}.`);
  };
  const number = (name: RangedSetting) => (
    <Field label={SETTING_LABELS[name]} hint={rangeHint(name)} error={refused[name]}>
      {(control) => (
        <Input
          {...control}
          type="number"
          inputMode="numeric"
          min={SETTING_RANGES[name].min}
          max={SETTING_RANGES[name].max}
          disabled={pinned[name] !== undefined}
          {...register(name, { valueAsNumber: true })}
        />
      )}
    </Field>
  );
  const text = (name: 'smtp_host' | 'smtp_user' | 'smtp_sender', maxLength: number, placeholder: string) => (
    <Field label={SETTING_LABELS[name]} hint={hintOf(name)} error={refused[name]}>
      {(control) => (
        <Input
          {...control}
          maxLength={maxLength}
          placeholder={placeholder}
          autoComplete="off"
          spellCheck={false}
          disabled={pinned[name] !== undefined}
          {...register(name)}
        />
      )}
    </Field>
  );

  const submit = form.handleSubmit((values) => {
    const dirty = formState.dirtyFields as Partial<Record<keyof FormValues, boolean>>;
    const changes: Record<string, unknown> = {};
    for (const name of Object.keys(dirty) as (keyof FormValues)[]) {
      if (!dirty[name] || name === 'smtp_password' || pinned[name as SettingName]) continue;
      changes[name] = values[name];
    }
    if (removePassword) changes.smtp_password = null;
    else if (values.smtp_password !== '') changes.smtp_password = values.smtp_password;
    save.mutate(changes as SystemSettingsUpdate, {
      onSuccess: () => {
        setRemovePassword(false);
        toast.success('System settings saved.');
      },
    });
  });

  return (
    <div className="space-y-6">
      <form onSubmit={submit} className="space-y-6" noValidate>
        <Section
          id="settings-email"
          icon={Mail}
          title="Outgoing e-mail"
          description="The SMTP server Guardian sends alerts and notices through. The password is stored encrypted and never shown again."
        >
          {text('smtp_host', SMTP_HOST_MAX_LENGTH, 'smtp.example.com')}
          {number('smtp_port')}
          <Field label={SETTING_LABELS.smtp_tls} hint={hintOf('smtp_tls')} error={refused.smtp_tls}>
            {(control) => (
              <Select {...control} disabled={pinned.smtp_tls !== undefined} {...register('smtp_tls')}>
                {SMTP_TLS_MODES.map((mode) => (
                  <option key={mode} value={mode}>
                    {SMTP_TLS_LABELS[mode]}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          {text('smtp_sender', SMTP_SENDER_MAX_LENGTH, 'Guardian <guardian@example.com>')}
          {text('smtp_user', SMTP_USER_MAX_LENGTH, 'Leave empty for none')}
          <Field
            label={SETTING_LABELS.smtp_password}
            hint={hintOf(
              'smtp_password',
              settings.values.smtp_password_set
                ? 'A password is stored: type a new one to replace it.'
                : 'None stored.',
            )}
            error={refused.smtp_password}
          >
            {(control) => (
              <Input
                {...control}
                type="password"
                autoComplete="new-password"
                maxLength={SMTP_PASSWORD_MAX_LENGTH}
                disabled={pinned.smtp_password !== undefined || removePassword}
                {...register('smtp_password')}
              />
            )}
          </Field>
          {settings.values.smtp_password_set && pinned.smtp_password === undefined && (
            <Checkbox
              label="Remove the stored password"
              checked={removePassword}
              onChange={(event) => setRemovePassword(event.target.checked)}
            />
          )}
        </Section>
        <Section
          id="settings-sign-in"
          icon={LockKeyhole}
          title="Sign-in policy"
          description="Two-factor for everyone, how long a session lasts, and how sign-in guessing is slowed down."
        >
          <Checkbox
            label={SETTING_LABELS.require_two_factor}
            disabled={pinned.require_two_factor !== undefined}
            {...register('require_two_factor')}
          />
          <div className="hidden sm:block" />
          {number('session_lifetime_minutes')}
          {number('sign_in_window_minutes')}
          {number('sign_in_failures_per_email')}
          {number('sign_in_failures_per_address')}
        </Section>
        <Section
          id="settings-retention"
          icon={Clock}
          title="Retention and sweeps"
          description="How long Guardian keeps what it records, and how often it looks for expired ban list items."
        >
          {number('audit_retention_days')}
          {number('snapshot_retention_hours')}
          {number('resolved_alert_retention_days')}
          {number('expiry_sweep_seconds')}
        </Section>
        {save.isError && Object.keys(refused).length === 0 && (
          <ErrorMessage>{actionErrorMessage(save.error, 'Failed to save the system settings.')}</ErrorMessage>
        )}
        {save.isError && Object.keys(refused).length > 0 && (
          <ErrorMessage>{errorMessage(save.error, 'Some settings were refused.')}</ErrorMessage>
        )}
        <FormSaveButton label="Save Settings" saving={save.isPending} />
      </form>
      <TestEmail settings={settings} />
      <NotificationChannelsSection />
    </div>
  );
}

/** "Send a test e-mail": through the saved settings, to an address or the administrator's own. */
function TestEmail({ settings }: { settings: SystemSettings }) {
  const send = useTestEmailMutation();
  const [to, setTo] = useState('');
  const ready = settings.values.smtp_host !== null && settings.values.smtp_sender !== null;
  return (
    <Card id="test-email">
      <CardTitle id="test-email" icon={Send}>
        Send a test e-mail
      </CardTitle>
      <p className="mt-1 text-sm text-ink-muted">Through the saved settings. Save your changes first.</p>
      <form
        className="mt-4 flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          send.mutate(to);
        }}
      >
        <Field label="Recipient" hint="Empty: your own address." className="min-w-0 flex-[1_1_16rem]">
          {(control) => (
            <Input
              {...control}
              type="email"
              maxLength={EMAIL_MAX_LENGTH}
              placeholder="name@example.com"
              value={to}
              onChange={(event) => setTo(event.target.value)}
            />
          )}
        </Field>
        <Button type="submit" variant="secondary" disabled={send.isPending || !ready}>
          {send.isPending ? 'Sending...' : 'Send a test e-mail'}
        </Button>
      </form>
      {!ready && <p className="mt-2 text-sm text-ink-muted">Set the SMTP host and the sender first.</p>}
      <div aria-live="polite" className="mt-3">
        {send.isSuccess && (
          <p className="text-sm text-ink">
            Sent to {send.data.sent_to}. The server answered: {send.data.server_response || 'OK'}
          </p>
        )}
        {send.isError && (
          <ErrorMessage>{errorMessage(send.error, 'The test e-mail was not sent.')}</ErrorMessage>
        )}
      </div>
    </Card>
  );
}
