import type { ApiKeyAccess, User } from '@guardian/contract';
import { Badge } from '../../../components/ui/badge';
import { Button, DeleteButton } from '../../../components/ui/button';
import { useConfirmedAction } from '../../../components/ui/confirm-dialog';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorMessage } from '../../../components/ui/error-message';
import { DataTable, TableActionsCell, TableCell, TableRow } from '../../../components/ui/table';
import { actionErrorMessage } from '../../../lib/api';
import { useRevokeUserApiKeyMutation } from '../../../api/api-keys/user-api-key-revoke-mutation';
import { useUserApiKeysQuery } from '../../../api/api-keys/user-api-keys-query';

const day = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });
const ACCESS_LABEL: Record<ApiKeyAccess, string> = { read: 'Read only', ban: 'Ban' };

/**
 * A person's API keys, for an administrator: what each may do and when it was last used, and Revoke
 * (a lost laptop, a person who left). The keys themselves are never shown, only their last four.
 */
export function UserApiKeysDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const keys = useUserApiKeysQuery(user.id);
  const revoke = useRevokeUserApiKeyMutation(user.id);
  const confirmAction = useConfirmedAction();

  const remove = (id: number, name: string) =>
    confirmAction({
      title: 'Revoke API Key',
      message: `Revoke the key "${name}" of ${user.email}? Scripts using it are refused from now on.`,
      confirmLabel: 'Revoke',
      busyLabel: 'Revoking...',
      action: () => revoke.mutateAsync(id),
      done: `API key ${name} of ${user.email} revoked.`,
      failed: 'Failed to revoke the API key.',
    });

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="API Keys"
      description={
        <>
          The keys <span className="break-all">{user.email}</span> made for scripts. Disabling them, changing
          their level or resetting their password revokes them all.
        </>
      }
      size="lg"
      footer={<Button onClick={onClose}>Done</Button>}
    >
      {keys.isError ? (
        <ErrorMessage onRetry={() => void keys.refetch()}>
          {actionErrorMessage(keys.error, 'Failed to fetch the API keys.')}
        </ErrorMessage>
      ) : (
        <DataTable
          caption={`API keys of ${user.email}`}
          columns={['Name', 'Access', 'Created', 'Last Used', 'Actions']}
          loading={keys.isPending}
          loadingText="Loading API keys..."
          rows={keys.data}
          empty={`${user.email} has no API keys.`}
        >
          {(key) => (
            <TableRow key={key.id}>
              <TableCell label="Name" className="font-medium break-words">
                <span>
                  {key.name} <span className="font-mono text-xs text-ink-muted">…{key.last_four}</span>
                </span>
              </TableCell>
              <TableCell label="Access">
                <Badge tone={key.access === 'ban' ? 'blue' : 'grey'}>{ACCESS_LABEL[key.access]}</Badge>
              </TableCell>
              <TableCell label="Created" className="whitespace-nowrap text-ink-muted">
                {day.format(new Date(key.created_at))}
              </TableCell>
              <TableCell label="Last Used" className="whitespace-nowrap text-ink-muted">
                {key.last_used_at ? day.format(new Date(key.last_used_at)) : 'Never'}
              </TableCell>
              <TableActionsCell label="Actions">
                <DeleteButton
                  label={`Revoke API key ${key.name}`}
                  onClick={() => void remove(key.id, key.name)}
                />
              </TableActionsCell>
            </TableRow>
          )}
        </DataTable>
      )}
    </Dialog>
  );
}
