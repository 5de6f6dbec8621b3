import { zodResolver } from '@hookform/resolvers/zod';
import { addZoneRequestSchema, type AddZoneResponse } from '@guardian/contract';
import { FormDialog } from '../../../components/ui/form-dialog';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Field, Input, Select } from '../../../components/ui/input';
import { useAccountsQuery } from '../../../api/accounts/accounts-query';
import { useAddZoneMutation } from '../../../api/zones/zone-add-mutation';
import { ApiError } from '../../../lib/api';
import { useDialogForm } from '../../../lib/use-dialog-form';

/** Spec section 8: the add-zone dialog shows the first entry of the errors array. */
function addZoneErrorText(error: unknown): string {
  return (error instanceof ApiError && error.body?.errors[0]?.message) || 'Failed to add zone.';
}

interface AddZoneDialogProps {
  onClose: () => void;
  onAdded: (zone: AddZoneResponse['result']) => void;
}

/** Add Zone: an account and a domain name, both required. Mount it only while open. */
export function AddZoneDialog({ onClose, onAdded }: AddZoneDialogProps) {
  const accounts = useAccountsQuery();
  const addZone = useAddZoneMutation();
  const form = useDialogForm({
    resolver: zodResolver(addZoneRequestSchema),
    defaultValues: { account_id: '', domain: '' },
    saves: [addZone],
  });
  const { errors } = form.formState;

  return (
    <FormDialog
      title="Add Zone"
      description="Add a domain to one of your Cloudflare accounts."
      onClose={onClose}
      {...form.submitTo(addZone, ({ result }) => onAdded(result))}
      savingLabel="Adding..."
      submitDisabled={accounts.isError}
    >
      {accounts.isError ? (
        <ErrorMessage onRetry={() => void accounts.refetch()}>Failed to fetch accounts.</ErrorMessage>
      ) : (
        <Field label="Account" required error={errors.account_id?.message}>
          {(control) => (
            <Select {...control} {...form.register('account_id')}>
              <option value="">{accounts.isPending ? 'Loading accounts...' : 'Select an account'}</option>
              {accounts.data?.map((account) => (
                <option key={account.id} value={account.account_id}>
                  {account.account_name}
                </option>
              ))}
            </Select>
          )}
        </Field>
      )}
      <Field label="Domain Name" required error={errors.domain?.message}>
        {(control) => (
          <Input
            {...control}
            {...form.register('domain')}
            placeholder="example.com"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
          />
        )}
      </Field>
      {addZone.isError && <ErrorMessage>{addZoneErrorText(addZone.error)}</ErrorMessage>}
    </FormDialog>
  );
}
