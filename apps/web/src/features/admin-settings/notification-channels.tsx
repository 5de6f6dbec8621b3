import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { BellRing, Plus } from 'lucide-react';
import {
  CHANNEL_NAME_MAX_LENGTH,
  CHANNEL_TYPE_LABELS,
  CHANNEL_TYPES,
  CHANNEL_URL_MAX_LENGTH,
  channelRequestSchema,
  channelUpdateRequestSchema,
  type ChannelRequest,
  type ChannelTestResult,
  type ChannelType,
  type ChannelUpdate,
  type CreatedChannel,
  type NotificationChannel,
} from '@guardian/contract';
import { Badge } from '../../components/ui/badge';
import { Button, DeleteButton } from '../../components/ui/button';
import { Card, CardTitle } from '../../components/ui/card';
import { Checkbox } from '../../components/ui/checkbox';
import { useConfirmedAction } from '../../components/ui/confirm-dialog';
import { ErrorMessage } from '../../components/ui/error-message';
import { FormDialog } from '../../components/ui/form-dialog';
import { Field, Input, Select, type InputProps } from '../../components/ui/input';
import { OneTimeSecret } from '../../components/ui/one-time-secret';
import { DataTable, TableActionsCell, TableCell, TableRow } from '../../components/ui/table';
import { useToast } from '../../components/ui/toast';
import { actionErrorMessage, errorMessage } from '../../lib/api';
import { useDialogForm } from '../../lib/use-dialog-form';
import {
  useCreateChannelMutation,
  useDeleteChannelMutation,
  useNotificationChannelsQuery,
  useTestChannelMutation,
  useUpdateChannelMutation,
} from '../../api/notification-channels/notification-channels';

const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const SHORT_TYPES: Record<ChannelType, string> = {
  webhook: 'Webhook',
  slack: 'Slack',
  teams: 'Microsoft Teams',
  discord: 'Discord',
};
const URL_HINTS: Record<ChannelType, string> = {
  webhook: 'Your receiver: Guardian posts signed JSON (Standard Webhooks) to it.',
  slack: 'Slack > Apps > Incoming Webhooks: https://hooks.slack.com/services/...',
  teams: "The channel's incoming webhook (Connectors or Workflows).",
  discord: 'Channel settings > Integrations > Webhooks: https://discord.com/api/webhooks/...',
};

interface AddForm {
  name: string;
  type: ChannelType;
  webhook_url: string;
  enabled: boolean;
}

const checkAdd = zodResolver(channelRequestSchema);

/** A channel's name, as both the add and the change dialog take it. */
function ChannelNameInput(props: InputProps) {
  return <Input {...props} maxLength={CHANNEL_NAME_MAX_LENGTH} autoComplete="off" />;
}

/** A channel's URL, as both the add and the change dialog take it. */
function ChannelUrlInput(props: InputProps) {
  return (
    <Input
      {...props}
      maxLength={CHANNEL_URL_MAX_LENGTH}
      inputMode="url"
      autoComplete="off"
      spellCheck={false}
      placeholder="https://"
    />
  );
}

/** Add a channel: its name, type and URL; a webhook's signing secret is shown once, with Copy. */
function AddChannelDialog({ onClose }: { onClose: () => void }) {
  const create = useCreateChannelMutation();
  const [created, setCreated] = useState<CreatedChannel | null>(null);
  const form = useDialogForm<AddForm, ChannelRequest>({
    resolver: checkAdd as never,
    defaultValues: { name: '', type: 'webhook', webhook_url: '', enabled: true },
    saves: [create],
  });
  const { errors } = form.formState;
  const type = form.watch('type');
  return (
    <FormDialog
      title="Add a notification channel"
      description="Alerts are posted to it as they are raised."
      onClose={onClose}
      {...form.submitTo(create, setCreated)}
      submitLabel="Add Channel"
      savingLabel="Adding..."
      saved={
        created && {
          title: `Channel "${created.channel.name}" added`,
          content: created.signing_secret ? (
            <div className="space-y-3">
              <p className="text-sm text-ink">
                Your receiver verifies each delivery with this signing secret (Standard Webhooks). It is shown
                this once: copy it now.
              </p>
              <OneTimeSecret label="Signing secret" value={created.signing_secret} />
            </div>
          ) : (
            <p className="text-sm text-ink">
              Alerts now go to {SHORT_TYPES[created.channel.type]}. Send a test to check it.
            </p>
          ),
        }
      }
    >
      <Field label="Name" required error={errors.name?.message}>
        {(control) => <ChannelNameInput {...control} {...form.register('name')} />}
      </Field>
      <Field label="Type" required error={errors.type?.message}>
        {(control) => (
          <Select {...control} {...form.register('type')}>
            {CHANNEL_TYPES.map((option) => (
              <option key={option} value={option}>
                {CHANNEL_TYPE_LABELS[option]}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label="URL" required error={errors.webhook_url?.message} hint={URL_HINTS[type]}>
        {(control) => <ChannelUrlInput {...control} {...form.register('webhook_url')} />}
      </Field>
      <Checkbox label="Enabled" {...form.register('enabled')} />
      {create.isError && (
        <ErrorMessage>{actionErrorMessage(create.error, 'Failed to add the channel.')}</ErrorMessage>
      )}
    </FormDialog>
  );
}

interface EditForm {
  name: string;
  webhook_url: string;
  enabled: boolean;
}

const checkUpdate = zodResolver(channelUpdateRequestSchema);

/** Change a channel's name, URL (empty keeps the stored one) or whether it is on. */
function EditChannelDialog({ channel, onClose }: { channel: NotificationChannel; onClose: () => void }) {
  const update = useUpdateChannelMutation();
  const toast = useToast();
  const form = useDialogForm<EditForm, ChannelUpdate>({
    resolver: ((values: EditForm, context: unknown, options: unknown) =>
      checkUpdate(
        // An empty URL keeps the stored one: it is left out of the change.
        { ...values, webhook_url: values.webhook_url.trim() === '' ? undefined : values.webhook_url },
        context,
        options as Parameters<typeof checkUpdate>[2],
      )) as never,
    defaultValues: { name: channel.name, webhook_url: '', enabled: channel.enabled },
    saves: [update],
  });
  const { errors } = form.formState;
  return (
    <FormDialog
      title={`Change "${channel.name}"`}
      onClose={onClose}
      onSubmit={form.submitWith((changes) =>
        update.mutate(
          { id: channel.id, changes },
          {
            onSuccess: (saved) => {
              toast.success(`Channel "${saved.name}" saved.`);
              onClose();
            },
          },
        ),
      )}
      saving={update.isPending}
      submitLabel="Save"
    >
      <Field label="Name" required error={errors.name?.message}>
        {(control) => <ChannelNameInput {...control} {...form.register('name')} />}
      </Field>
      <Field
        label="New URL"
        error={errors.webhook_url?.message}
        hint={`Now ${channel.url_masked}. Leave empty to keep it.`}
      >
        {(control) => <ChannelUrlInput {...control} {...form.register('webhook_url')} />}
      </Field>
      <Checkbox label="Enabled" {...form.register('enabled')} />
      {update.isError && (
        <ErrorMessage>{actionErrorMessage(update.error, 'Failed to save the channel.')}</ErrorMessage>
      )}
    </FormDialog>
  );
}

function LastDelivery({ channel }: { channel: NotificationChannel }) {
  const last = channel.last_delivery;
  if (!last) return <span className="text-ink-muted">None yet</span>;
  return (
    <div className="min-w-0">
      <Badge tone={last.ok ? 'green' : 'red'}>{last.ok ? 'Delivered' : 'Failed'}</Badge>
      <span className="ml-2 text-xs text-ink-muted">{when.format(new Date(last.at))}</span>
      <span className="block text-xs break-words text-ink-muted">{last.message}</span>
    </div>
  );
}

/**
 * System Setting's notification channels: where alerts are posted besides the console (a signed
 * webhook, Slack, Microsoft Teams, Discord). Add, change, delete, and send a test now.
 */
export function NotificationChannelsSection() {
  const channels = useNotificationChannelsQuery();
  const test = useTestChannelMutation();
  const remove = useDeleteChannelMutation();
  const confirmAction = useConfirmedAction();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<NotificationChannel | null>(null);
  /** The channel of the last test, and how it went. */
  const [tested, setTested] = useState<{ name: string; result?: ChannelTestResult; error?: unknown } | null>(
    null,
  );

  const sendTest = (channel: NotificationChannel) => {
    setTested(null);
    test.mutate(channel.id, {
      onSuccess: (result) => setTested({ name: channel.name, result }),
      onError: (error) => setTested({ name: channel.name, error }),
    });
  };

  const deleteChannel = (channel: NotificationChannel) =>
    confirmAction({
      title: 'Delete notification channel',
      message: `Delete "${channel.name}"? Alerts stop going to it, and its deliveries still waiting are dropped.`,
      action: () => remove.mutateAsync(channel.id),
      done: `Channel "${channel.name}" deleted.`,
      failed: 'Failed to delete the channel.',
    });

  const full = channels.data !== undefined && channels.data.channels.length >= channels.data.limit;
  return (
    <Card id="settings-channels">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-[1_1_20rem]">
          <CardTitle id="settings-channels" icon={BellRing}>
            Notification channels
          </CardTitle>
          <p className="mt-1 text-sm text-ink-muted">
            Alerts are posted here too: a webhook signed with Standard Webhooks, Slack, Microsoft Teams or
            Discord. A delivery that fails is retried for about an hour; a channel that keeps failing raises
            an alert for administrators. URLs are stored encrypted and shown masked.
          </p>
        </div>
        <Button
          icon={<Plus aria-hidden="true" className="size-4" />}
          disabled={channels.data === undefined || full}
          onClick={() => setAdding(true)}
        >
          Add Channel
        </Button>
      </div>
      {full && (
        <p className="mt-2 text-sm text-ink-muted">
          {channels.data!.limit} channels is the most there may be: delete one to add another.
        </p>
      )}
      <div className="mt-4">
        {channels.isError ? (
          <ErrorMessage>
            {errorMessage(channels.error, 'Failed to load the notification channels.')}
          </ErrorMessage>
        ) : (
          <DataTable
            caption="Notification channels"
            columns={['Name', 'URL', 'Last delivery', 'Failures', 'Status', 'Actions']}
            rows={channels.data?.channels}
            loading={channels.isPending}
            loadingText="Loading notification channels..."
            empty="No channel yet: alerts are shown in the console only."
          >
            {(channel) => (
              <TableRow key={channel.id}>
                <TableCell label="Name">
                  <div>
                    <span className="font-medium">{channel.name}</span>
                    <span className="block text-xs text-ink-muted">{SHORT_TYPES[channel.type]}</span>
                  </div>
                </TableCell>
                <TableCell label="URL">
                  <div className="min-w-0">
                    <span className="font-mono text-xs break-all">{channel.url_masked}</span>
                    {channel.from_environment && (
                      <span className="block text-xs text-ink-muted">
                        Set by the environment variable {channel.from_environment}.
                      </span>
                    )}
                  </div>
                </TableCell>
                <TableCell label="Last delivery">
                  <LastDelivery channel={channel} />
                </TableCell>
                <TableCell label="Failures">
                  <div>
                    {channel.failing_count === 0 ? 'None' : `${channel.failing_count} in a row`}
                    {(channel.queued > 0 || channel.dropped > 0) && (
                      <span className="block text-xs text-ink-muted">
                        {channel.queued.toLocaleString('en-US')} waiting ·{' '}
                        {channel.dropped.toLocaleString('en-US')} dropped
                      </span>
                    )}
                  </div>
                </TableCell>
                <TableCell label="Status">
                  <Badge tone={channel.enabled ? 'green' : 'grey'}>{channel.enabled ? 'On' : 'Off'}</Badge>
                </TableCell>
                <TableActionsCell label="Actions">
                  <Button
                    size="sm"
                    variant="secondary"
                    loading={test.isPending && test.variables === channel.id}
                    disabled={test.isPending}
                    onClick={() => sendTest(channel)}
                  >
                    {test.isPending && test.variables === channel.id ? 'Sending...' : 'Send a test'}
                  </Button>
                  {!channel.from_environment && (
                    <>
                      <Button size="sm" variant="secondary" onClick={() => setEditing(channel)}>
                        Change
                      </Button>
                      <DeleteButton
                        label={`Delete channel ${channel.name}`}
                        onClick={() => void deleteChannel(channel)}
                      />
                    </>
                  )}
                </TableActionsCell>
              </TableRow>
            )}
          </DataTable>
        )}
      </div>
      <div aria-live="polite" className="mt-3">
        {tested?.result && (
          <p className="text-sm text-ink">
            Test delivered to "{tested.name}". {tested.result.answer}
          </p>
        )}
        {tested?.error !== undefined && (
          <ErrorMessage>{errorMessage(tested.error, 'The test message was not delivered.')}</ErrorMessage>
        )}
      </div>
      {adding && <AddChannelDialog onClose={() => setAdding(false)} />}
      {editing && <EditChannelDialog channel={editing} onClose={() => setEditing(null)} />}
    </Card>
  );
}
