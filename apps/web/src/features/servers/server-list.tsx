import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { Plus } from 'lucide-react';
import {
  createServerRequestSchema,
  SERVER_INTEGRATIONS,
  SERVER_INTEGRATION_LABELS,
  serverInstallStep,
  type CreateServerRequest,
  type CreatedServer,
  type Server,
  type ServerState,
} from '@guardian/contract';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { Button, CopyButton, DeleteButton } from '../../components/ui/button';
import { useConfirm } from '../../components/ui/confirm-dialog';
import { ErrorMessage } from '../../components/ui/error-message';
import { FormDialog } from '../../components/ui/form-dialog';
import { Field, Input, Select } from '../../components/ui/input';
import { PageHeader } from '../../components/ui/page-header';
import { DataTable, TableActionsCell, TableCell, TableRow } from '../../components/ui/table';
import { useToast } from '../../components/ui/toast';
import { actionErrorMessage } from '../../lib/api';
import { useDialogForm } from '../../lib/use-dialog-form';
import { useServersQuery } from '../../api/servers/servers-query';
import { useServerGroupsQuery } from '../../api/servers/server-groups-query';
import { useCreateServerMutation } from '../../api/servers/server-create-mutation';
import { useRevokeServerMutation } from '../../api/servers/server-revoke-mutation';

const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const STATE_TONE: Record<ServerState, BadgeTone> = { active: 'green', silent: 'yellow', revoked: 'grey' };
const STATE_LABEL: Record<ServerState, string> = { active: 'Active', silent: 'Silent', revoked: 'Revoked' };

/** Copies a text, saying so in a toast. */
function useCopy() {
  const toast = useToast();
  return (text: string, what: string) =>
    navigator.clipboard.writeText(text).then(
      () => toast.success(`${what} copied.`),
      () => toast.error(`Could not copy: select the ${what.toLowerCase()} and copy it.`),
    );
}

/** The key and the install step of a server just registered: shown once. */
function Registered({ server }: { server: CreatedServer }) {
  const copy = useCopy();
  const step = serverInstallStep(server.integration, window.location.origin, server.key);
  return (
    <div className="space-y-4 text-sm">
      <p className="text-ink-muted">Copy the key now: it will not be shown again.</p>
      <div className="flex items-center gap-2">
        <code
          aria-label="Server key"
          className="min-w-0 flex-1 rounded-control bg-canvas px-3 py-2 font-mono text-xs break-all"
        >
          {server.key}
        </code>
        <CopyButton onClick={() => void copy(server.key, 'Server key')} />
      </div>
      <div className="space-y-2">
        <div className="flex items-center justify-between gap-2">
          <h3 className="font-medium text-ink">
            Install step ({SERVER_INTEGRATION_LABELS[server.integration]})
          </h3>
          <Button size="sm" variant="secondary" onClick={() => void copy(step, 'Install step')}>
            Copy install step
          </Button>
        </div>
        <pre
          aria-label="Install step"
          className="max-h-72 overflow-auto rounded-control bg-canvas p-3 font-mono text-xs whitespace-pre-wrap break-all"
        >
          {step}
        </pre>
      </div>
    </div>
  );
}

const checkServer = zodResolver(createServerRequestSchema);

interface ServerForm {
  name: string;
  group_id: string;
  integration: CreateServerRequest['integration'];
  expected_interval_minutes: string;
}

/** Register: a name, its group and its integration; then its key and install step, once. */
function RegisterDialog({ onClose }: { onClose: () => void }) {
  const create = useCreateServerMutation();
  const groups = useServerGroupsQuery();
  const [created, setCreated] = useState<CreatedServer | null>(null);
  const form = useDialogForm<ServerForm, CreateServerRequest>({
    resolver: (values, context, options) =>
      checkServer(
        {
          ...values,
          group_id: values.group_id === '' ? undefined : Number(values.group_id),
          expected_interval_minutes: Number(values.expected_interval_minutes),
        } as unknown as Parameters<typeof checkServer>[0],
        context,
        options as unknown as Parameters<typeof checkServer>[2],
      ) as never,
    defaultValues: { name: '', group_id: '', integration: 'fail2ban', expected_interval_minutes: '60' },
    saves: [create],
  });
  const { errors } = form.formState;
  const noGroups = groups.data?.length === 0;
  return (
    <FormDialog
      title="Register Server"
      description="The server gets its own key, held to its group's policy."
      size="lg"
      onClose={onClose}
      onSubmit={form.submitWith((request) => create.mutate(request, { onSuccess: setCreated }))}
      saving={create.isPending}
      submitDisabled={noGroups || groups.isError}
      submitLabel="Register"
      savingLabel="Registering..."
      saved={
        created
          ? { title: `Server "${created.name}" registered`, content: <Registered server={created} /> }
          : null
      }
    >
      <Field label="Name" required error={errors.name?.message}>
        {(control) => <Input {...control} {...form.register('name')} maxLength={60} placeholder="web-1" />}
      </Field>
      <Field
        label="Group"
        required
        error={errors.group_id?.message}
        hint={
          noGroups ? (
            <>
              No group yet: <Link to="/servers/groups">create one</Link> (its lists and rules) first.
            </>
          ) : undefined
        }
      >
        {(control) => (
          <Select {...control} {...form.register('group_id')}>
            <option value="">{groups.isPending ? 'Loading groups...' : 'Choose a group'}</option>
            {(groups.data ?? []).map((group) => (
              <option key={group.id} value={group.id}>
                {group.name}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label="Integration" required error={errors.integration?.message}>
        {(control) => (
          <Select {...control} {...form.register('integration')}>
            {SERVER_INTEGRATIONS.map((integration) => (
              <option key={integration} value={integration}>
                {SERVER_INTEGRATION_LABELS[integration]}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field
        label="Expected interval (minutes)"
        hint="Shown as silent after this long without a call."
        error={errors.expected_interval_minutes?.message}
      >
        {(control) => (
          <Input {...control} {...form.register('expected_interval_minutes')} inputMode="numeric" />
        )}
      </Field>
      {groups.isError && (
        <ErrorMessage>{actionErrorMessage(groups.error, 'Failed to fetch server groups.')}</ErrorMessage>
      )}
      {create.isError && (
        <ErrorMessage>{actionErrorMessage(create.error, 'Failed to register the server.')}</ErrorMessage>
      )}
    </FormDialog>
  );
}

const counts = (value: { day: number; week: number }) =>
  `${value.day.toLocaleString('en-US')} / ${value.week.toLocaleString('en-US')}`;

/** /servers/list: the person's servers, registered with a key shown once, watched, revocable. */
export default function ServerListPage() {
  const servers = useServersQuery();
  const revoke = useRevokeServerMutation();
  const confirm = useConfirm();
  const toast = useToast();
  const [registering, setRegistering] = useState(false);

  const remove = (server: Server) =>
    confirm({
      title: 'Revoke Server Key',
      message: `Revoke the key of "${server.name}"? Its bans and unbans are refused from now on.`,
      confirmLabel: 'Revoke',
      busyLabel: 'Revoking...',
      action: () => revoke.mutateAsync(server.id),
    }).then(
      (revoked) => revoked && toast.success(`Server ${server.name} revoked.`),
      (error: unknown) => toast.error(actionErrorMessage(error, 'Failed to revoke the server.')),
    );

  return (
    <>
      <PageHeader
        title="Server List"
        description="The machines that send bans: each with its own key, held to its group's policy."
        actions={
          <Button icon={<Plus aria-hidden="true" className="size-4" />} onClick={() => setRegistering(true)}>
            Register Server
          </Button>
        }
      />
      {servers.isError ? (
        <ErrorMessage>{actionErrorMessage(servers.error, 'Failed to fetch servers.')}</ErrorMessage>
      ) : (
        <DataTable
          caption="Servers"
          columns={[
            'Server',
            'Integration',
            'Last seen',
            'Bans 24 h / 7 d',
            'Unbans 24 h / 7 d',
            'Refused 24 h / 7 d',
            'State',
            'Actions',
          ]}
          rows={servers.data}
          loading={servers.isPending}
          loadingText="Loading servers..."
          empty="No servers yet: register one to give it a key."
        >
          {(server) => (
            <TableRow key={server.id}>
              <TableCell label="Server">
                {/* One grid cell on a phone's card: the name and its group under it, beside the label. */}
                <div>
                  <span className="font-medium">{server.name}</span>
                  <span className="block text-xs text-ink-muted">
                    {server.group_name} · key …{server.key_last_four}
                  </span>
                </div>
              </TableCell>
              <TableCell label="Integration">
                <div>
                  {SERVER_INTEGRATION_LABELS[server.integration]}
                  {server.version && <span className="block text-xs text-ink-muted">{server.version}</span>}
                </div>
              </TableCell>
              <TableCell label="Last seen">
                {server.last_seen_at ? when.format(new Date(server.last_seen_at)) : 'Never'}
              </TableCell>
              <TableCell label="Bans 24 h / 7 d">{counts(server.bans)}</TableCell>
              <TableCell label="Unbans 24 h / 7 d">{counts(server.unbans)}</TableCell>
              <TableCell label="Refused 24 h / 7 d">
                <div>
                  {counts(server.refused)}
                  {server.last_refusal && (
                    <span className="block text-xs text-ink-muted">Last: {server.last_refusal.reason}</span>
                  )}
                </div>
              </TableCell>
              <TableCell label="State">
                <Badge tone={STATE_TONE[server.state]}>{STATE_LABEL[server.state]}</Badge>
              </TableCell>
              <TableActionsCell label="Actions">
                {server.state !== 'revoked' && (
                  <DeleteButton label={`Revoke server ${server.name}`} onClick={() => void remove(server)} />
                )}
              </TableActionsCell>
            </TableRow>
          )}
        </DataTable>
      )}
      {registering && <RegisterDialog onClose={() => setRegistering(false)} />}
    </>
  );
}
