import { useState } from 'react';
import { addAccountRequestSchema } from '@guardian/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Field, Input } from '../../../components/ui/input';
import { errorMessage } from '../../../lib/api';
import { useAddAccountMutation } from '../../../api/accounts/account-add-mutation';
import { fieldErrorsOf } from '../../../lib/field-errors';

type FieldErrors = Partial<Record<'account_name' | 'token', string>>;

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
  const [accountName, setAccountName] = useState('');
  const [token, setToken] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});

  const submit = () => {
    const parsed = addAccountRequestSchema.safeParse({ account_name: accountName, token });
    if (!parsed.success) {
      setErrors(fieldErrorsOf<keyof FieldErrors>(parsed.error.issues));
      return;
    }
    setErrors({});
    addAccount.mutate(parsed.data, { onSuccess: onAdded });
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Add Account"
      description="Connect a Cloudflare account with an API token."
      size="sm"
      busy={addAccount.isPending}
      onSubmit={submit}
      footer={
        <>
          <Button variant="secondary" disabled={addAccount.isPending} onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={addAccount.isPending}>
            {addAccount.isPending ? 'Verifying...' : 'Add Account'}
          </Button>
        </>
      }
    >
      <Field label="Account Name" required error={errors.account_name}>
        {(control) => (
          <Input
            {...control}
            value={accountName}
            placeholder="e.g. Production"
            autoComplete="off"
            onChange={(event) => setAccountName(event.target.value)}
          />
        )}
      </Field>
      <Field
        label="API Token"
        required
        error={errors.token}
        hint="Only its last four characters are shown after saving."
      >
        {(control) => (
          <Input
            {...control}
            type="password"
            value={token}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            onChange={(event) => setToken(event.target.value)}
          />
        )}
      </Field>
      {addAccount.isError && (
        <ErrorMessage>{errorMessage(addAccount.error, 'Failed to add account')}</ErrorMessage>
      )}
    </Dialog>
  );
}
