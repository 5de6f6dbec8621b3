import { zodResolver } from '@hookform/resolvers/zod';
import { updateAccountRequestSchema, type CloudflareAccount } from '@guardian/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Field, Input } from '../../../components/ui/input';
import { TokenInput } from './token-input';
import { useUpdateAccountMutation } from '../../../api/accounts/account-update-mutation';
import { errorMessage } from '../../../lib/api';
import { useDialogForm } from '../../../lib/use-dialog-form';

interface EditAccountDialogProps {
  account: CloudflareAccount;
  onClose: () => void;
  onSaved: (account: CloudflareAccount) => void;
}

/**
 * Edit Account: rename it, or replace its API token (rotated, or revoked at Cloudflare). A new token
 * is checked with Cloudflare for this same account before it replaces the current one, hence
 * 'Verifying...'; left empty, the current token stays. Mount it only while open.
 */
export function EditAccountDialog({ account, onClose, onSaved }: EditAccountDialogProps) {
  const updateAccount = useUpdateAccountMutation();
  const form = useDialogForm({
    resolver: zodResolver(updateAccountRequestSchema),
    defaultValues: { account_name: account.account_name, token: '' },
    saves: [updateAccount],
  });
  const { errors } = form.formState;
  const replacingToken = form.watch('token')?.trim() !== '';

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Edit Account"
      description={`Cloudflare account ${account.account_id}.`}
      size="sm"
      busy={updateAccount.isPending}
      onSubmit={form.submitWith((request) =>
        updateAccount.mutate({ id: account.id, request }, { onSuccess: onSaved }),
      )}
      footer={
        <>
          <Button variant="secondary" disabled={updateAccount.isPending} onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={updateAccount.isPending}>
            {updateAccount.isPending ? (replacingToken ? 'Verifying...' : 'Saving...') : 'Save'}
          </Button>
        </>
      }
    >
      <Field label="Account Name" required error={errors.account_name?.message}>
        {(control) => <Input {...control} {...form.register('account_name')} autoComplete="off" />}
      </Field>
      <Field
        label="New API Token"
        error={errors.token?.message}
        hint={`Leave empty to keep the current token (${account.token}). A new token must be active and belong to this same Cloudflare account; only its last four characters are shown after saving.`}
      >
        {(control) => <TokenInput {...control} {...form.register('token')} />}
      </Field>
      {updateAccount.isError && (
        <ErrorMessage>{errorMessage(updateAccount.error, 'Failed to save the account.')}</ErrorMessage>
      )}
    </Dialog>
  );
}
