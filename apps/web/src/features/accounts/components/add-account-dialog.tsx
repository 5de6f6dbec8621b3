import { zodResolver } from '@hookform/resolvers/zod';
import { addAccountRequestSchema } from '@guardian/contract';
import { FormDialog } from '../../../components/ui/form-dialog';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Field, Input } from '../../../components/ui/input';
import { TokenInput } from './token-input';
import { useAddAccountMutation } from '../../../api/accounts/account-add-mutation';
import { errorMessage } from '../../../lib/api';
import { useDialogForm } from '../../../lib/use-dialog-form';

interface AddAccountDialogProps {
  onClose: () => void;
  onAdded: () => void;
}

/**
 * Add Account: a name of the person's choosing and a Cloudflare API token, both required. The
 * server checks the token with Cloudflare before saving, hence 'Verifying...'. Mount it only while open.
 */
export function AddAccountDialog({ onClose, onAdded }: AddAccountDialogProps) {
  const addAccount = useAddAccountMutation();
  const form = useDialogForm({
    resolver: zodResolver(addAccountRequestSchema),
    defaultValues: { account_name: '', token: '' },
    saves: [addAccount],
  });
  const { errors } = form.formState;

  return (
    <FormDialog
      title="Add Account"
      description="Connect a Cloudflare account with an API token."
      onClose={onClose}
      {...form.submitTo(addAccount, onAdded)}
      savingLabel="Verifying..."
    >
      <Field label="Account Name" required error={errors.account_name?.message}>
        {(control) => (
          <Input
            {...control}
            {...form.register('account_name')}
            placeholder="e.g. Production"
            autoComplete="off"
          />
        )}
      </Field>
      <Field
        label="API Token"
        required
        error={errors.token?.message}
        hint="Only its last four characters are shown after saving."
      >
        {(control) => <TokenInput {...control} {...form.register('token')} />}
      </Field>
      {addAccount.isError && (
        <ErrorMessage>{errorMessage(addAccount.error, 'Failed to add account')}</ErrorMessage>
      )}
    </FormDialog>
  );
}
