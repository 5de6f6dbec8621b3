import { useEffect } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { BellRing } from 'lucide-react';
import {
  ALERT_KIND_LABELS,
  notificationPreferencesUpdateRequestSchema,
  type NotificationPreferences,
  type NotificationPreferencesUpdate,
} from '@guardian/contract';
import { FormSaveButton } from '../../components/ui/button';
import { ErrorMessage } from '../../components/ui/error-message';
import { Spinner } from '../../components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '../../components/ui/table';
import { useToast } from '../../components/ui/toast';
import { actionErrorMessage, errorMessage } from '../../lib/api';
import { useDialogForm } from '../../lib/use-dialog-form';
import {
  useNotificationPreferencesQuery,
  useSaveNotificationPreferencesMutation,
} from '../../api/notifications/notifications';
import { ProfileSection } from './profile-section';

const CHANNELS = [
  { field: 'email', label: 'E-mail' },
  { field: 'webhook', label: 'Webhook' },
] as const;

function PreferencesForm({ current }: { current: NotificationPreferences }) {
  const save = useSaveNotificationPreferencesMutation();
  const toast = useToast();
  const form = useDialogForm<NotificationPreferencesUpdate>({
    resolver: zodResolver(notificationPreferencesUpdateRequestSchema),
    defaultValues: { preferences: current.preferences },
    saves: [save],
  });
  // A save's answer (or another tab's) becomes the form's starting point.
  const { reset } = form;
  useEffect(() => reset({ preferences: current.preferences }), [current, reset]);
  const emailOff = !current.email_set_up;

  return (
    <form
      aria-label="Notification settings"
      className="mt-4 grid gap-3"
      onSubmit={form.submitWith((request) =>
        save.mutate(request, { onSuccess: () => toast.success('Notification settings saved.') }),
      )}
    >
      {emailOff && (
        <p className="rounded-md border border-warning/40 bg-warning-soft px-3 py-2 text-sm text-ink">
          E-mail is not set up by your administrator: alerts are in the console only until it is.
        </p>
      )}
      <Table caption="Where each kind of alert goes">
        <TableHead>
          <TableHeaderCell>Alert</TableHeaderCell>
          <TableHeaderCell className="text-center">Console</TableHeaderCell>
          {CHANNELS.map((channel) => (
            <TableHeaderCell key={channel.field} className="text-center">
              {channel.label}
            </TableHeaderCell>
          ))}
        </TableHead>
        <TableBody>
          {current.preferences.map((preference, index) => {
            const label = ALERT_KIND_LABELS[preference.kind];
            return (
              <TableRow key={preference.kind}>
                <TableCell label="Alert" className="font-medium">
                  {label}
                </TableCell>
                <TableCell label="Console" className="text-center">
                  {/* The console is the record: every alert is there. */}
                  <input
                    type="checkbox"
                    checked
                    disabled
                    aria-label={`${label}: console (always)`}
                    className="size-4 accent-brand"
                  />
                </TableCell>
                {CHANNELS.map((channel) => (
                  <TableCell key={channel.field} label={channel.label} className="text-center">
                    <input
                      type="checkbox"
                      aria-label={`${label}: ${channel.label.toLowerCase()}`}
                      className="size-4 rounded border-line-strong accent-brand"
                      {...form.register(`preferences.${index}.${channel.field}`)}
                    />
                  </TableCell>
                ))}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      <p className="text-sm text-ink-muted">
        E-mail comes at once for the first alert of a kind, then at most once every{' '}
        {current.email_window_minutes} minutes with the others of that kind in one digest. Webhooks go to the
        channels your administrator set up.
      </p>
      {save.isError && (
        <ErrorMessage>
          {actionErrorMessage(save.error, 'Failed to save the notification settings.')}
        </ErrorMessage>
      )}
      <FormSaveButton label="Save Notifications" saving={save.isPending} />
    </form>
  );
}

/** The profile page's notifications: per kind of alert, e-mail and webhook on or off (the console always). */
export function NotificationsSection() {
  const preferences = useNotificationPreferencesQuery();
  return (
    <ProfileSection
      id="notifications"
      icon={BellRing}
      title="Notifications"
      description="Every alert is in the console. Choose which kinds also reach you by e-mail or webhook."
    >
      {preferences.isPending && (
        <div className="mt-4 flex items-center gap-2 text-sm text-ink-muted">
          <Spinner size="sm" label={null} /> Loading your notification settings...
        </div>
      )}
      {preferences.isError && (
        <ErrorMessage className="mt-4">
          {errorMessage(preferences.error, 'Could not load your notification settings.')}
        </ErrorMessage>
      )}
      {preferences.data && <PreferencesForm current={preferences.data} />}
    </ProfileSection>
  );
}
