import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import { KeyRound, Plus } from 'lucide-react';
import {
  createApiKeyRequestSchema,
  type ApiKeyAccess,
  type CreateApiKeyRequest,
  type CreatedApiKey,
} from '@guardian/contract';
import { Badge } from '../../components/ui/badge';
import { Button, DeleteButton } from '../../components/ui/button';
import { CopyableCode } from '../../components/ui/copyable-code';
import { useConfirmedAction } from '../../components/ui/confirm-dialog';
import { Dialog } from '../../components/ui/dialog';
import { FormDialog } from '../../components/ui/form-dialog';
import { ErrorMessage } from '../../components/ui/error-message';
import { Input, StackedLabel } from '../../components/ui/input';
import { actionErrorMessage } from '../../lib/api';
import { useBanListsQuery } from '../../api/ban-lists/ban-lists-query';
import { useCreateApiKeyMutation } from '../../api/api-keys/api-key-create-mutation';
import { useApiKeysQuery } from '../../api/api-keys/api-keys-query';
import { useRevokeApiKeyMutation } from '../../api/api-keys/api-key-revoke-mutation';
import { counted } from '../../lib/counted';
import { useDialogForm } from '../../lib/use-dialog-form';
import { ProfileSection } from './profile-section';

const day = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });
const ACCESS_LABEL: Record<ApiKeyAccess, string> = { read: 'Read only', ban: 'Ban' };

/** The create form's fields: the request's, its expiry a day (the date input's text) or ''. */
interface CreateKeyForm {
  name: string;
  access: ApiKeyAccess;
  list_ids: string[];
  expires_at: string;
}

const checkCreateKey = zodResolver(createApiKeyRequestSchema, undefined, { raw: true });

/**
 * Checks the request the dialog would send with the server's own schema: a key expires at the end of
 * the day chosen. It goes as the person wrote it (the server trims), hence `raw`.
 */
const createKeyResolver: Resolver<CreateKeyForm, unknown, CreateApiKeyRequest> = (form, context, options) =>
  checkCreateKey(
    { ...form, expires_at: form.expires_at ? new Date(`${form.expires_at}T23:59:59`).toISOString() : null },
    context,
    options as unknown as Parameters<typeof checkCreateKey>[2],
  );

/** The create form: a name, what the key may do, the lists it is limited to, an optional expiry. */
function CreateKeyDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (key: CreatedApiKey) => void;
}) {
  const create = useCreateApiKeyMutation();
  const banLists = useBanListsQuery();
  const form = useDialogForm({
    resolver: createKeyResolver,
    defaultValues: { name: '', access: 'ban', list_ids: [], expires_at: '' },
    saves: [create],
  });
  const { errors } = form.formState;
  // One message at a time: the failed save's, else the first field's in the dialog's order.
  const message = create.isError
    ? actionErrorMessage(create.error, 'Failed to create the API key.')
    : (errors.name ?? errors.access ?? errors.list_ids ?? errors.expires_at)?.message;

  return (
    <FormDialog
      title="Create API Key"
      description="For scripts such as Fail2Ban or CrowdSec. The key is shown once."
      size="md"
      onClose={onClose}
      {...form.submitTo(create, onCreated)}
      submitLabel="Create Key"
      savingLabel="Creating..."
    >
      <StackedLabel text="Name">
        <Input {...form.register('name')} maxLength={60} placeholder="fail2ban on web-1" />
      </StackedLabel>
      <fieldset className="grid gap-2 text-sm">
        <legend className="mb-1 font-medium text-ink">Access</legend>
        <label className="flex items-center gap-2">
          <input type="radio" value="ban" {...form.register('access')} />
          Ban: read, and add or remove ban-list items
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" value="read" {...form.register('access')} />
          Read only
        </label>
      </fieldset>
      <StackedLabel text="Limit to lists (none: every list of your accounts)">
        <select
          multiple
          className="min-h-24 rounded-control border border-line-strong bg-surface px-2 py-1 text-sm"
          {...form.register('list_ids')}
        >
          {(banLists.data ?? []).map((list) => (
            <option key={list.list_id} value={list.list_id}>
              {list.list_name} ({list.account_name})
            </option>
          ))}
        </select>
      </StackedLabel>
      <StackedLabel text="Expires (optional)">
        <Input type="date" {...form.register('expires_at')} />
      </StackedLabel>
      {message && <ErrorMessage>{message}</ErrorMessage>}
    </FormDialog>
  );
}

/** The key just created, shown once, with Copy. */
function NewKeyDialog({ created, onClose }: { created: CreatedApiKey; onClose: () => void }) {
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`API key "${created.name}"`}
      description="Copy this key now: it will not be shown again."
      footer={<Button onClick={onClose}>Done</Button>}
    >
      <CopyableCode
        label="New API key"
        value={created.key}
        words={{ copied: 'API key copied.', failed: 'Could not copy: select the key and copy it.' }}
      />
    </Dialog>
  );
}

/** The profile page's API keys: list, create (shown once), revoke. */
export function ApiKeysSection() {
  const keys = useApiKeysQuery();
  const revoke = useRevokeApiKeyMutation();
  const confirmAction = useConfirmedAction();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);

  const remove = (id: number, name: string) =>
    confirmAction({
      title: 'Revoke API Key',
      message: `Revoke the key "${name}"? Scripts using it are refused from now on.`,
      confirmLabel: 'Revoke',
      busyLabel: 'Revoking...',
      action: () => revoke.mutateAsync(id),
      done: `API key ${name} revoked.`,
      failed: 'Failed to revoke the API key.',
    });

  return (
    <ProfileSection
      id="api-keys"
      icon={KeyRound}
      title="API keys"
      description={
        <>
          Scripts send a key as <code className="font-mono">Authorization: Bearer</code>. See /api/docs.
        </>
      }
      action={
        <Button icon={<Plus aria-hidden="true" className="size-4" />} onClick={() => setCreating(true)}>
          Create Key
        </Button>
      }
    >
      {keys.isError ? (
        <ErrorMessage className="mt-4">
          {actionErrorMessage(keys.error, 'Failed to fetch API keys.')}{' '}
          <button type="button" className="font-semibold underline" onClick={() => void keys.refetch()}>
            Retry
          </button>
        </ErrorMessage>
      ) : keys.isPending ? (
        <p className="mt-4 text-sm text-ink-muted">Loading API keys...</p>
      ) : keys.data.length === 0 ? (
        <p className="mt-4 text-sm text-ink-muted">No API keys yet.</p>
      ) : (
        <ul aria-label="API keys" className="mt-4 divide-y divide-line">
          {keys.data.map((key) => (
            <li key={key.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3">
              <div className="min-w-0 flex-1">
                <p className="font-medium break-words text-ink">
                  {key.name} <span className="font-mono text-xs text-ink-muted">…{key.last_four}</span>
                </p>
                <p className="text-xs text-ink-muted">
                  Created {day.format(new Date(key.created_at))}
                  {key.expires_at ? ` · expires ${day.format(new Date(key.expires_at))}` : ' · never expires'}
                  {key.last_used_at
                    ? ` · last used ${day.format(new Date(key.last_used_at))}`
                    : ' · never used'}
                  {key.list_ids.length > 0 && ` · ${counted(key.list_ids.length, 'list')} only`}
                </p>
              </div>
              <Badge tone={key.access === 'ban' ? 'blue' : 'grey'}>{ACCESS_LABEL[key.access]}</Badge>
              <DeleteButton
                label={`Revoke API key ${key.name}`}
                onClick={() => void remove(key.id, key.name)}
              />
            </li>
          ))}
        </ul>
      )}

      {creating && (
        <CreateKeyDialog
          onClose={() => setCreating(false)}
          onCreated={(key) => {
            setCreating(false);
            setCreated(key);
          }}
        />
      )}
      {created && <NewKeyDialog created={created} onClose={() => setCreated(null)} />}
    </ProfileSection>
  );
}
