import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Pencil, Plus } from 'lucide-react';
import {
  CLOUDFLARE_IP_RANGES,
  DEFAULT_COMMENT_TEMPLATE,
  serverGroupRequestSchema,
  type ServerGroup,
  type ServerGroupRequest,
} from '@guardian/contract';
import { Button, DeleteButton } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { useConfirmedAction } from '../../components/ui/confirm-dialog';
import { ErrorMessage } from '../../components/ui/error-message';
import { FormDialog } from '../../components/ui/form-dialog';
import { Field, Input, Textarea } from '../../components/ui/input';
import { PageHeader } from '../../components/ui/page-header';
import { DataTable, TableActionsCell, TableCell, TableRow } from '../../components/ui/table';
import { useToast } from '../../components/ui/toast';
import { actionErrorMessage } from '../../lib/api';
import { useDialogForm } from '../../lib/use-dialog-form';
import { useBanListsQuery } from '../../api/ban-lists/ban-lists-query';
import { useServerGroupsQuery } from '../../api/servers/server-groups-query';
import { useSaveServerGroupMutation } from '../../api/servers/server-group-save-mutation';
import { useRemoveServerGroupMutation } from '../../api/servers/server-group-remove-mutation';

/** The policy form: durations in hours and the allowlist one entry a line, as a person writes them. */
interface GroupForm {
  name: string;
  list_ids: string[];
  default_hours: string;
  max_hours: string;
  comment_template: string;
  allowlist: string;
  ceiling_per_hour: string;
  review: boolean;
}

const checkGroup = zodResolver(serverGroupRequestSchema);
/** Hours as typed ('' for none) to seconds (null for none); text that is no number goes on as it is, for the schema's message. */
const seconds = (hours: string): number | null | string =>
  hours.trim() === '' ? null : Number.isFinite(Number(hours)) ? Math.round(Number(hours) * 3600) : hours;
const hours = (value: number | null) => (value === null ? '' : String(value / 3600));

const toRequest = (form: GroupForm) => ({
  name: form.name,
  list_ids: form.list_ids,
  default_duration_seconds: seconds(form.default_hours),
  max_duration_seconds: seconds(form.max_hours),
  comment_template: form.comment_template,
  allowlist: form.allowlist
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter(Boolean),
  ceiling_per_hour: Number(form.ceiling_per_hour),
  review: form.review,
});

/** Create or edit a group: its lists, expiries, comment, allowlist, ceiling. */
function GroupDialog({ group, onClose }: { group?: ServerGroup; onClose: () => void }) {
  const save = useSaveServerGroupMutation();
  const banLists = useBanListsQuery();
  const toast = useToast();
  const form = useDialogForm<GroupForm, ServerGroupRequest>({
    resolver: (values, context, options) =>
      checkGroup(
        // Text that is not a number goes on as typed: the schema says what is wrong with it.
        toRequest(values) as unknown as Parameters<typeof checkGroup>[0],
        context,
        options as unknown as Parameters<typeof checkGroup>[2],
      ) as never,
    fieldOf: (field) =>
      ({
        default_duration_seconds: 'default_hours',
        max_duration_seconds: 'max_hours',
      })[field.split('.')[0]!] ?? field.split('.')[0]!,
    defaultValues: {
      name: group?.name ?? '',
      list_ids: group?.lists.map((list) => list.list_id) ?? [],
      default_hours: group ? hours(group.default_duration_seconds) : '24',
      max_hours: group ? hours(group.max_duration_seconds) : '720',
      comment_template: group?.comment_template ?? DEFAULT_COMMENT_TEMPLATE,
      allowlist: group?.allowlist.join('\n') ?? '',
      ceiling_per_hour: String(group?.ceiling_per_hour ?? 600),
      review: group?.review ?? false,
    },
    saves: [save],
  });
  const { errors } = form.formState;
  const ipLists = (banLists.data ?? []).filter((list) => list.kind === 'ip');
  const addCloudflare = () => {
    const current = form.getValues('allowlist').split(/\s+/).filter(Boolean);
    form.setValue('allowlist', [...new Set([...current, ...CLOUDFLARE_IP_RANGES])].join('\n'));
  };
  return (
    <FormDialog
      title={group ? `Edit Group "${group.name}"` : 'Create Server Group'}
      description="Enforced by Guardian on every ban its servers send."
      size="lg"
      onClose={onClose}
      onSubmit={form.submitWith((request) =>
        save.mutate(
          { id: group?.id, request },
          {
            onSuccess: (saved) => {
              toast.success(`Server group ${saved.name} saved.`);
              onClose();
            },
          },
        ),
      )}
      saving={save.isPending}
      submitLabel={group ? 'Save' : 'Create Group'}
    >
      <Field label="Name" required error={errors.name?.message}>
        {(control) => (
          <Input {...control} {...form.register('name')} maxLength={60} placeholder="Web hosts" />
        )}
      </Field>
      <Field
        label="Lists its bans go to"
        required
        error={errors.list_ids?.message}
        hint="IP lists of any of your accounts."
      >
        {(control) => (
          <div
            id={control.id}
            aria-describedby={control['aria-describedby']}
            className="grid max-h-40 gap-1 overflow-auto rounded-control border border-line p-2"
          >
            {banLists.isPending ? (
              <span className="text-sm text-ink-muted">Loading lists...</span>
            ) : ipLists.length === 0 ? (
              <span className="text-sm text-ink-muted">No IP lists yet: add one on the Ban Lists page.</span>
            ) : (
              ipLists.map((list) => (
                <Checkbox
                  key={list.list_id}
                  value={list.list_id}
                  label={`${list.list_name} (${list.account_name})`}
                  {...form.register('list_ids')}
                />
              ))
            )}
          </div>
        )}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Default expiry (hours)"
          hint="Empty: until removed."
          error={errors.default_hours?.message}
        >
          {(control) => <Input {...control} {...form.register('default_hours')} inputMode="decimal" />}
        </Field>
        <Field
          label="Longest expiry (hours)"
          hint="Empty: no limit. Longer bans are cut to it."
          error={errors.max_hours?.message}
        >
          {(control) => <Input {...control} {...form.register('max_hours')} inputMode="decimal" />}
        </Field>
      </div>
      <Field
        label="Comment"
        hint="{server}, {jail} and {reason} are filled in."
        error={errors.comment_template?.message}
      >
        {(control) => <Input {...control} {...form.register('comment_template')} maxLength={200} />}
      </Field>
      <Field
        label="Allowlist: never banned"
        hint={
          <>
            Addresses and CIDRs, one a line.{' '}
            <button type="button" className="font-semibold underline" onClick={addCloudflare}>
              Add Cloudflare&apos;s ranges
            </button>
          </>
        }
        error={errors.allowlist?.message}
      >
        {(control) => (
          <Textarea {...control} {...form.register('allowlist')} rows={4} placeholder="203.0.113.0/24" />
        )}
      </Field>
      <Field label="Ceiling (bans per hour per server)" error={errors.ceiling_per_hour?.message}>
        {(control) => <Input {...control} {...form.register('ceiling_per_hour')} inputMode="numeric" />}
      </Field>
      <Checkbox
        label="Review: bans wait until a person approves them on the Server List"
        {...form.register('review')}
      />
      {save.isError && (
        <ErrorMessage>{actionErrorMessage(save.error, 'Failed to save the server group.')}</ErrorMessage>
      )}
    </FormDialog>
  );
}

const duration = (value: number | null) =>
  value === null ? 'never' : `${(value / 3600).toLocaleString('en-US')} h`;

/** /servers/groups: the groups and their policies. */
export default function ServerGroupsPage() {
  const groups = useServerGroupsQuery();
  const remove = useRemoveServerGroupMutation();
  const confirmAction = useConfirmedAction();
  const [editing, setEditing] = useState<ServerGroup | 'new' | null>(null);

  const removeGroup = (group: ServerGroup) =>
    confirmAction({
      title: 'Delete Server Group',
      message: `Delete the group "${group.name}"? Its bans already sent stay in their lists.`,
      action: () => remove.mutateAsync(group.id),
      done: `Server group ${group.name} deleted.`,
      failed: 'Failed to delete the server group.',
    });

  return (
    <>
      <PageHeader
        title="Server Groups"
        description="Where a group's bans go and the rules they follow: expiry, comment, allowlist, ceiling."
        actions={
          <Button icon={<Plus aria-hidden="true" className="size-4" />} onClick={() => setEditing('new')}>
            Create Group
          </Button>
        }
      />
      {groups.isError ? (
        <ErrorMessage>{actionErrorMessage(groups.error, 'Failed to fetch server groups.')}</ErrorMessage>
      ) : (
        <DataTable
          caption="Server groups"
          columns={[
            'Group',
            'Lists',
            'Expiry (default / longest)',
            'Allowlist',
            'Ceiling',
            'Servers',
            'Actions',
          ]}
          rows={groups.data}
          loading={groups.isPending}
          loadingText="Loading server groups..."
          empty="No server groups yet: create one before registering servers."
        >
          {(group) => (
            <TableRow key={group.id}>
              <TableCell label="Group">
                <span className="font-medium">{group.name}</span>
              </TableCell>
              <TableCell label="Lists">
                {group.lists.length === 0
                  ? 'None'
                  : group.lists.map((list) => `${list.list_name} (${list.account_name})`).join(', ')}
              </TableCell>
              <TableCell label="Expiry (default / longest)">
                {duration(group.default_duration_seconds)} / {duration(group.max_duration_seconds)}
              </TableCell>
              <TableCell label="Allowlist">
                {group.allowlist.length === 0 ? 'None' : `${group.allowlist.length} entries`}
              </TableCell>
              <TableCell label="Ceiling">
                <div>
                  {group.ceiling_per_hour.toLocaleString('en-US')} / h
                  {group.review && <span className="block text-xs text-ink-muted">Reviewed</span>}
                </div>
              </TableCell>
              <TableCell label="Servers">{group.servers}</TableCell>
              <TableActionsCell label="Actions">
                <Button
                  size="icon"
                  variant="ghost"
                  aria-label={`Edit server group ${group.name}`}
                  onClick={() => setEditing(group)}
                >
                  <Pencil aria-hidden="true" className="size-4" />
                </Button>
                <DeleteButton
                  label={`Delete server group ${group.name}`}
                  onClick={() => void removeGroup(group)}
                />
              </TableActionsCell>
            </TableRow>
          )}
        </DataTable>
      )}
      {editing && (
        <GroupDialog group={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      )}
    </>
  );
}
