import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { Check, KeyRound, Plus, X } from 'lucide-react';
import {
  createServerRequestSchema,
  SERVER_INTEGRATIONS,
  SERVER_INTEGRATION_LABELS,
  serverInstallStep,
  type CreateServerRequest,
  type CreatedServer,
  type Server,
  type ServerHourly,
  type ServerReview,
  type ServerState,
} from '@guardian/contract';
import { Sparkline, SparklineLegend } from '../../components/charts/sparkline';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { Button, DeleteButton } from '../../components/ui/button';
import { useConfirmedAction } from '../../components/ui/confirm-dialog';
import { CopyableCode, useCopy } from '../../components/ui/copyable-code';
import { ErrorMessage } from '../../components/ui/error-message';
import { FormDialog } from '../../components/ui/form-dialog';
import { Field, Input, Select } from '../../components/ui/input';
import { PageHeader } from '../../components/ui/page-header';
import { DataTable, TableActionsCell, TableCell, TableRow } from '../../components/ui/table';
import { useToast } from '../../components/ui/toast';
import { actionErrorMessage } from '../../lib/api';
import { useDialogForm } from '../../lib/use-dialog-form';
import { useServersQuery } from '../../api/servers/servers-query';
import { useServerHourlyQuery } from '../../api/servers/server-hourly-query';
import { useServerGroupsQuery } from '../../api/servers/server-groups-query';
import { useCreateServerMutation } from '../../api/servers/server-create-mutation';
import { useRevokeServerMutation } from '../../api/servers/server-revoke-mutation';
import { useServerReviewsQuery } from '../../api/servers/server-reviews-query';
import { useDecideReviewsMutation } from '../../api/servers/server-review-decide-mutation';
import { useRenewSigningSecretMutation } from '../../api/servers/server-signing-secret-mutation';

const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const STATE_TONE: Record<ServerState, BadgeTone> = { active: 'green', silent: 'yellow', revoked: 'grey' };
const STATE_LABEL: Record<ServerState, string> = { active: 'Active', silent: 'Silent', revoked: 'Revoked' };

/** The install step of a server's integration, ready to paste. */
function InstallStep({ integration, step }: { integration: Server['integration']; step: string }) {
  const copy = useCopy();
  return (
    <div className="space-y-2">
      <div className="flex items-center justify-between gap-2">
        <h3 className="font-medium text-ink">Install step ({SERVER_INTEGRATION_LABELS[integration]})</h3>
        <Button
          size="sm"
          variant="secondary"
          onClick={() =>
            void copy(step, {
              copied: 'Install step copied.',
              failed: 'Could not copy: select the install step and copy it.',
            })
          }
        >
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
  );
}

const stepOf = (server: Pick<Server, 'id' | 'integration'>, key?: string, secret?: string) =>
  serverInstallStep(
    server.integration,
    window.location.origin,
    key,
    secret ? { serverId: server.id, secret } : undefined,
  );

/** The key and the install step of a server just registered: shown once (and its signing secret). */
function Registered({ server }: { server: CreatedServer }) {
  const webhook = server.integration === 'webhook';
  return (
    <div className="space-y-4 text-sm">
      <p className="text-ink-muted">
        Copy the key{webhook ? ' and the signing secret' : ''} now: {webhook ? 'they' : 'it'} will not be
        shown again.
      </p>
      <CopyableCode label="Server key" value={server.key} />
      {webhook && <CopyableCode label="Signing secret" value={server.signing_secret} />}
      <InstallStep
        integration={server.integration}
        step={stepOf(server, server.key, webhook ? server.signing_secret : undefined)}
      />
    </div>
  );
}

/** A new signing secret for a server's signed webhook: the old one stops working; the new one shown once. */
function SigningSecretDialog({ server, onClose }: { server: Server; onClose: () => void }) {
  const renew = useRenewSigningSecretMutation();
  return (
    <FormDialog
      title="New Signing Secret"
      description={`Make a new signing secret for "${server.name}"? Calls signed with the old one are refused from now on.`}
      size="lg"
      onClose={onClose}
      onSubmit={(event) => {
        event.preventDefault();
        renew.mutate(server.id);
      }}
      saving={renew.isPending}
      submitLabel="Make New Secret"
      savingLabel="Making..."
      saved={
        renew.data
          ? {
              title: `New signing secret of "${server.name}"`,
              content: (
                <div className="space-y-4 text-sm">
                  <p className="text-ink-muted">Copy it now: it will not be shown again.</p>
                  <CopyableCode label="Signing secret" value={renew.data.signing_secret} />
                  <InstallStep
                    integration="webhook"
                    step={stepOf({ ...server, integration: 'webhook' }, undefined, renew.data.signing_secret)}
                  />
                </div>
              ),
            }
          : null
      }
    >
      {renew.isError && (
        <ErrorMessage>{actionErrorMessage(renew.error, 'Failed to make a new signing secret.')}</ErrorMessage>
      )}
    </FormDialog>
  );
}

const lengthOf = (seconds: number | null) =>
  seconds === null ? 'Until removed' : `${(seconds / 3600).toLocaleString('en-US')} h`;

/** Bans of groups with review on, waiting for a person: approved, they are queued like any ban. */
function ReviewQueue() {
  const reviews = useServerReviewsQuery();
  const decide = useDecideReviewsMutation();
  const toast = useToast();
  const [deciding, setDeciding] = useState<string | null>(null);
  if (reviews.isError)
    return (
      <ErrorMessage>
        {actionErrorMessage(reviews.error, 'Failed to fetch the bans waiting for review.')}
      </ErrorMessage>
    );
  const waiting = reviews.data?.reviews ?? [];
  if (waiting.length === 0) return null;
  const run = (what: string, ids: number[], decision: 'approve' | 'reject') => {
    setDeciding(what);
    decide.mutate(
      { ids, decision },
      {
        onSuccess: ({ decided }) =>
          toast.success(
            `${decided.toLocaleString('en-US')} ${decided === 1 ? 'ban' : 'bans'} ${decision === 'approve' ? 'approved' : 'rejected'}.`,
          ),
        onError: (error) => toast.error(actionErrorMessage(error, `Failed to ${decision} the bans.`)),
        onSettled: () => setDeciding(null),
      },
    );
  };
  const shown = waiting.slice(0, 100).map((review) => review.id);
  const total = reviews.data?.total ?? 0;
  return (
    <section aria-labelledby="reviews-heading" className="mb-6 space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="reviews-heading" className="text-base font-semibold text-ink">
          Waiting for review ({total.toLocaleString('en-US')})
        </h2>
        <div className="flex gap-2">
          <Button
            size="sm"
            variant="secondary"
            loading={deciding === 'reject-all'}
            disabled={deciding !== null}
            onClick={() => run('reject-all', shown, 'reject')}
          >
            Reject {shown.length === total ? 'all' : `first ${shown.length}`}
          </Button>
          <Button
            size="sm"
            loading={deciding === 'approve-all'}
            disabled={deciding !== null}
            onClick={() => run('approve-all', shown, 'approve')}
          >
            Approve {shown.length === total ? 'all' : `first ${shown.length}`}
          </Button>
        </div>
      </div>
      <DataTable
        caption="Bans waiting for review"
        columns={['Address', 'Server', 'Comment', 'Length', 'Sent', 'Actions']}
        rows={waiting}
        loadingText="Loading the bans waiting for review..."
        empty="No bans wait for review."
      >
        {(review: ServerReview) => (
          <TableRow key={review.id}>
            <TableCell label="Address">
              <span className="font-mono">{review.address}</span>
            </TableCell>
            <TableCell label="Server">
              <div>
                {review.server_name}
                <span className="block text-xs text-ink-muted">{review.group_name}</span>
              </div>
            </TableCell>
            <TableCell label="Comment">{review.comment || '-'}</TableCell>
            <TableCell label="Length">{lengthOf(review.duration_seconds)}</TableCell>
            <TableCell label="Sent">{when.format(new Date(review.requested_at))}</TableCell>
            <TableActionsCell label="Actions">
              <Button
                size="icon"
                variant="ghost"
                aria-label={`Approve the ban of ${review.address}`}
                loading={deciding === `approve-${review.id}`}
                disabled={deciding !== null}
                onClick={() => run(`approve-${review.id}`, [review.id], 'approve')}
              >
                <Check aria-hidden="true" className="size-4" />
              </Button>
              <Button
                size="icon"
                variant="ghost"
                aria-label={`Reject the ban of ${review.address}`}
                loading={deciding === `reject-${review.id}`}
                disabled={deciding !== null}
                onClick={() => run(`reject-${review.id}`, [review.id], 'reject')}
              >
                <X aria-hidden="true" className="size-4" />
              </Button>
            </TableActionsCell>
          </TableRow>
        )}
      </DataTable>
    </section>
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
      {...form.submitTo(create, setCreated)}
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

const HOURLY_LABELS = ['Bans', 'Unbans', 'Refused'] as const;

/** A server's last 24 hours, hour by hour: its small chart, or why it is not drawn. */
function LastDay({
  server,
  hourly,
}: {
  server: Server;
  hourly: { data?: ServerHourly; isPending: boolean; isError: boolean };
}) {
  const mine = hourly.data?.servers.find((entry) => entry.server_id === server.id);
  if (!hourly.data || !mine)
    return (
      <span className="text-xs text-ink-muted">
        {hourly.isError ? 'Chart not available' : hourly.isPending ? 'Loading...' : '-'}
      </span>
    );
  return (
    <Sparkline
      title={`${server.name}, last 24 hours`}
      times={hourly.data.hours}
      series={[
        { label: HOURLY_LABELS[0], values: mine.bans },
        { label: HOURLY_LABELS[1], values: mine.unbans },
        { label: HOURLY_LABELS[2], values: mine.refused },
      ]}
    />
  );
}

const counts = (value: { day: number; week: number }) =>
  `${value.day.toLocaleString('en-US')} / ${value.week.toLocaleString('en-US')}`;

/** /servers/list: the person's servers, registered with a key shown once, watched, revocable. */
export default function ServerListPage() {
  const servers = useServersQuery();
  const hourly = useServerHourlyQuery(servers.data?.map((server) => server.id) ?? []);
  const revoke = useRevokeServerMutation();
  const confirmAction = useConfirmedAction();
  const [registering, setRegistering] = useState(false);
  const [renewing, setRenewing] = useState<Server | null>(null);

  const remove = (server: Server) =>
    confirmAction({
      title: 'Revoke Server Key',
      message: `Revoke the key of "${server.name}"? Its bans and unbans are refused from now on.`,
      confirmLabel: 'Revoke',
      busyLabel: 'Revoking...',
      action: () => revoke.mutateAsync(server.id),
      done: `Server ${server.name} revoked.`,
      failed: 'Failed to revoke the server.',
    });

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
      <ReviewQueue />
      {servers.isError ? (
        <ErrorMessage>{actionErrorMessage(servers.error, 'Failed to fetch servers.')}</ErrorMessage>
      ) : (
        <>
          {(servers.data?.length ?? 0) > 0 && (
            <p className="mb-2 flex flex-wrap items-center gap-x-2 text-xs text-ink-muted">
              Bars: each of the last 24 hours. <SparklineLegend labels={HOURLY_LABELS} />
            </p>
          )}
          <DataTable
            caption="Servers"
            columns={['Server', 'Integration', 'Last seen', 'Sent 24 h / 7 d', 'State', 'Actions']}
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
                    {server.in_review > 0 && (
                      <span className="block text-xs text-ink-muted">
                        {server.in_review.toLocaleString('en-US')} waiting for review
                      </span>
                    )}
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
                <TableCell label="Sent 24 h / 7 d">
                  {/* The chart of the last 24 hours above its figures: one column, so the row stays a table row on a laptop. */}
                  <div className="space-y-1">
                    <LastDay server={server} hourly={hourly} />
                    <span className="block tabular-nums">Bans {counts(server.bans)}</span>
                    <span className="block tabular-nums">Unbans {counts(server.unbans)}</span>
                    <span className="block tabular-nums">Refused {counts(server.refused)}</span>
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
                    <>
                      <Button
                        size="icon"
                        variant="ghost"
                        aria-label={`New signing secret for server ${server.name}`}
                        onClick={() => setRenewing(server)}
                      >
                        <KeyRound aria-hidden="true" className="size-4" />
                      </Button>
                      <DeleteButton
                        label={`Revoke server ${server.name}`}
                        onClick={() => void remove(server)}
                      />
                    </>
                  )}
                </TableActionsCell>
              </TableRow>
            )}
          </DataTable>
        </>
      )}
      {registering && <RegisterDialog onClose={() => setRegistering(false)} />}
      {renewing && <SigningSecretDialog server={renewing} onClose={() => setRenewing(null)} />}
    </>
  );
}
