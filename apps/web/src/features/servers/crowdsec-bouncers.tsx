import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import {
  CROWDSEC_PULL_SECONDS_DEFAULT,
  crowdsecSourceRequestSchema,
  type CrowdsecSource,
  type CrowdsecSourceRequest,
} from '@guardian/contract';
import { Badge } from '../../components/ui/badge';
import { Button, DeleteButton } from '../../components/ui/button';
import { useConfirmedAction } from '../../components/ui/confirm-dialog';
import { ErrorMessage } from '../../components/ui/error-message';
import { FormDialog } from '../../components/ui/form-dialog';
import { Field, Input } from '../../components/ui/input';
import { DataTable, TableActionsCell, TableCell, TableRow } from '../../components/ui/table';
import { useToast } from '../../components/ui/toast';
import { actionErrorMessage } from '../../lib/api';
import { useDialogForm } from '../../lib/use-dialog-form';
import { useCrowdsecSourcesQuery } from '../../api/servers/crowdsec-sources-query';
import {
  useConnectCrowdsecMutation,
  useDisconnectCrowdsecMutation,
  usePullCrowdsecMutation,
} from '../../api/servers/crowdsec-mutations';

const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const checkSource = zodResolver(crowdsecSourceRequestSchema);

interface SourceForm {
  lapi_url: string;
  bouncer_key: string;
  pull_interval_seconds: string;
}

/** Connect (or reconnect) a CrowdSec server to its Local API: the address, a bouncer key, the interval. */
function ConnectDialog({ source, onClose }: { source: CrowdsecSource; onClose: () => void }) {
  const connect = useConnectCrowdsecMutation();
  const toast = useToast();
  const form = useDialogForm<SourceForm, CrowdsecSourceRequest>({
    resolver: (values, context, options) =>
      checkSource(
        // Text that is not a number goes on as typed: the schema says what is wrong with it.
        {
          ...values,
          pull_interval_seconds:
            values.pull_interval_seconds.trim() === '' ? undefined : Number(values.pull_interval_seconds),
        } as unknown as Parameters<typeof checkSource>[0],
        context,
        options as unknown as Parameters<typeof checkSource>[2],
      ) as never,
    defaultValues: {
      lapi_url: source.lapi_url ?? 'http://127.0.0.1:8080',
      bouncer_key: '',
      pull_interval_seconds: String(source.pull_interval_seconds ?? CROWDSEC_PULL_SECONDS_DEFAULT),
    },
    saves: [connect],
  });
  const { errors } = form.formState;
  return (
    <FormDialog
      title={`Connect "${source.server_name}" to CrowdSec`}
      description="Guardian reads the Local API's decisions as a bouncer and mirrors its bans into the group's lists."
      onClose={onClose}
      onSubmit={form.submitWith((request) =>
        connect.mutate(
          { serverId: source.server_id, request },
          {
            onSuccess: () => {
              toast.success(`${source.server_name} connected: its first pull starts within seconds.`);
              onClose();
            },
          },
        ),
      )}
      saving={connect.isPending}
      submitLabel="Connect"
      savingLabel="Connecting..."
    >
      <Field
        label="Local API address"
        required
        error={errors.lapi_url?.message}
        hint="As Guardian reaches it: CrowdSec's api.server.listen_uri."
      >
        {(control) => <Input {...control} {...form.register('lapi_url')} maxLength={300} inputMode="url" />}
      </Field>
      <Field
        label="Bouncer key"
        required
        error={errors.bouncer_key?.message}
        hint={
          <>
            On the CrowdSec machine: <code>cscli bouncers add guardian</code>. Kept encrypted; not shown
            again.
          </>
        }
      >
        {(control) => (
          <Input
            {...control}
            {...form.register('bouncer_key')}
            type="password"
            autoComplete="off"
            maxLength={256}
          />
        )}
      </Field>
      <Field
        label="Pull every (seconds)"
        error={errors.pull_interval_seconds?.message}
        hint="10 to 3,600 seconds."
      >
        {(control) => <Input {...control} {...form.register('pull_interval_seconds')} inputMode="numeric" />}
      </Field>
      {connect.isError && (
        <ErrorMessage>{actionErrorMessage(connect.error, 'Failed to connect the server.')}</ErrorMessage>
      )}
    </FormDialog>
  );
}

const at = (iso: string | null) => (iso ? when.format(new Date(iso)) : 'Never');

/**
 * The person's CrowdSec servers as bouncers: each one's Local API, last pull, decisions mirrored
 * and its error; connect, pull now, disconnect.
 */
export function CrowdsecBouncers() {
  const sources = useCrowdsecSourcesQuery();
  const pull = usePullCrowdsecMutation();
  const disconnect = useDisconnectCrowdsecMutation();
  const confirmAction = useConfirmedAction();
  const toast = useToast();
  const [connecting, setConnecting] = useState<CrowdsecSource | null>(null);
  const [pulling, setPulling] = useState<number | null>(null);

  const pullNow = (source: CrowdsecSource) => {
    setPulling(source.server_id);
    pull.mutate(source.server_id, {
      onSuccess: (result) =>
        toast.success(
          `${source.server_name}: ${result.received} new decisions, ${result.mirrored} banned, ${result.unbanned} unbanned, ${result.refused} refused.`,
        ),
      onError: (error) => toast.error(actionErrorMessage(error, 'The pull failed.')),
      onSettled: () => setPulling(null),
    });
  };

  const remove = (source: CrowdsecSource) =>
    confirmAction({
      title: 'Disconnect CrowdSec',
      message: `Stop pulling the Local API of "${source.server_name}" and forget its bouncer key? Bans already mirrored stay until they expire.`,
      confirmLabel: 'Disconnect',
      busyLabel: 'Disconnecting...',
      action: () => disconnect.mutateAsync(source.server_id),
      done: `${source.server_name} disconnected.`,
      failed: 'Failed to disconnect the server.',
    });

  if (sources.isError)
    return (
      <ErrorMessage>{actionErrorMessage(sources.error, 'Failed to fetch CrowdSec servers.')}</ErrorMessage>
    );
  return (
    <>
      <DataTable
        caption="CrowdSec servers and their Local APIs"
        columns={['Server', 'Local API', 'Last pull', 'Mirrored', 'Refused', 'Status', 'Actions']}
        rows={sources.data}
        loading={sources.isPending}
        loadingText="Loading CrowdSec servers..."
        empty={
          <>
            No CrowdSec server yet: <Link to="/servers/list">register one</Link> with the CrowdSec
            integration.
          </>
        }
      >
        {(source) => (
          <TableRow key={source.server_id}>
            <TableCell label="Server">
              <div>
                <span className="font-medium">{source.server_name}</span>
                <span className="block text-xs text-ink-muted">{source.group_name}</span>
              </div>
            </TableCell>
            <TableCell label="Local API">
              {source.lapi_url ? (
                <div className="min-w-0">
                  <span className="break-all">{source.lapi_url}</span>
                  <span className="block text-xs text-ink-muted">
                    key …{source.key_last_four} · every {source.pull_interval_seconds} s
                  </span>
                </div>
              ) : (
                'Not connected'
              )}
            </TableCell>
            <TableCell label="Last pull">
              <div>
                {at(source.last_pull_at)}
                {source.last_error && source.last_success_at && (
                  <span className="block text-xs text-ink-muted">
                    Last good: {at(source.last_success_at)}
                  </span>
                )}
              </div>
            </TableCell>
            <TableCell label="Mirrored">
              <div>
                {source.mirrored.toLocaleString('en-US')}
                {source.pending > 0 && (
                  <span className="block text-xs text-ink-muted">
                    {source.pending.toLocaleString('en-US')} waiting
                  </span>
                )}
              </div>
            </TableCell>
            <TableCell label="Refused">{source.refused.toLocaleString('en-US')}</TableCell>
            <TableCell label="Status">
              {source.revoked ? (
                <Badge tone="grey">Revoked</Badge>
              ) : source.last_error ? (
                <div>
                  <Badge tone="red">Error</Badge>
                  <span className="block text-xs break-words text-ink-muted">{source.last_error}</span>
                </div>
              ) : source.last_success_at ? (
                <Badge tone="green">Pulling</Badge>
              ) : (
                <Badge tone="yellow">
                  {source.lapi_url ? 'Waiting for its first pull' : 'Not connected'}
                </Badge>
              )}
            </TableCell>
            <TableActionsCell label="Actions">
              {!source.revoked && (
                <>
                  <Button size="sm" variant="secondary" onClick={() => setConnecting(source)}>
                    {source.lapi_url ? 'Change' : 'Connect'}
                  </Button>
                  {source.lapi_url && (
                    <Button
                      size="sm"
                      variant="secondary"
                      loading={pulling === source.server_id}
                      disabled={pulling !== null}
                      onClick={() => pullNow(source)}
                    >
                      {pulling === source.server_id ? 'Pulling...' : 'Pull now'}
                    </Button>
                  )}
                </>
              )}
              {source.lapi_url && (
                <DeleteButton
                  label={`Disconnect ${source.server_name} from CrowdSec`}
                  onClick={() => void remove(source)}
                />
              )}
            </TableActionsCell>
          </TableRow>
        )}
      </DataTable>
      {connecting && <ConnectDialog source={connecting} onClose={() => setConnecting(null)} />}
    </>
  );
}
