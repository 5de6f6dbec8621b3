import { zodResolver } from '@hookform/resolvers/zod';
import { updateAccountRequestSchema, type CloudflareAccount } from '@guardian/contract';
import { FormDialog } from '../../../components/ui/form-dialog';
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
    <FormDialog
      title="Edit Account"
      description={`Cloudflare account ${account.account_id}.`}
      onClose={onClose}
      onSubmit={form.submitWith((request) =>
        updateAccount.mutate({ id: account.id, request }, { onSuccess: onSaved }),
      )}
      saving={updateAccount.isPending}
      submitLabel="Save"
      savingLabel={replacingToken ? 'Verifying...' : 'Saving...'}
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
    </FormDialog>
  );
}
