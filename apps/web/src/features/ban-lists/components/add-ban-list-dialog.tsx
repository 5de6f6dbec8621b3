import { zodResolver } from '@hookform/resolvers/zod';
import {
  addBanListRequestSchema,
  BAN_LIST_KINDS,
  BAN_LIST_NAME_MAX,
  BAN_LIST_NAME_RULE,
  capacityWarning,
  type BanList,
} from '@guardian/contract';
import { FormDialog } from '../../../components/ui/form-dialog';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Field, Input, Select } from '../../../components/ui/input';
import { useAccountsQuery } from '../../../api/accounts/accounts-query';
import { useAddBanListMutation } from '../../../api/ban-lists/ban-list-add-mutation';
import { useListCapacityQuery } from '../../../api/ip-search/list-capacity-query';
import { errorMessage } from '../../../lib/api';
import { useDialogForm } from '../../../lib/use-dialog-form';

interface AddBanListDialogProps {
  onClose: () => void;
  onAdded: (banList: BanList) => void;
}

/** Add a ban list: an account, a list name and a type. Mount it only while open. */
export function AddBanListDialog({ onClose, onAdded }: AddBanListDialogProps) {
  const accounts = useAccountsQuery();
  const addBanList = useAddBanListMutation();
  const form = useDialogForm({
    resolver: zodResolver(addBanListRequestSchema),
    defaultValues: { account_name: '', list_name: '', kind: 'ip' },
    saves: [addBanList],
  });
  const { errors } = form.formState;
  // An empty field is marked under the spec's one message; a list name's other faults show under it.
  const missing = {
    account: Boolean(errors.account_name),
    listName: errors.list_name?.type === 'too_small',
  };
  const anyMissing = missing.account || missing.listName;
  const listNameError = anyMissing ? undefined : errors.list_name?.message;
  // The chosen account's list quota: warned about before a list would pass it.
  const accountName = form.watch('account_name');
  const capacity = useListCapacityQuery().data?.accounts.find(
    (account) => account.account_name === accountName,
  );
  const full = capacity && capacityWarning(capacity, { lists: 1 });

  return (
    <FormDialog
      title="Add Ban List"
      description="Create a list at Cloudflare in one of your accounts."
      onClose={onClose}
      {...form.submitTo(addBanList, onAdded)}
      savingLabel="Adding..."
      submitDisabled={accounts.isError}
    >
      {accounts.isError ? (
        <ErrorMessage onRetry={() => void accounts.refetch()}>Could not load accounts.</ErrorMessage>
      ) : (
        <Field
          label="Account"
          required
          hint={accounts.data?.length === 0 ? 'Add an account under Cloudflare Accounts first.' : undefined}
        >
          {(control) => (
            <Select {...control} {...form.register('account_name')} invalid={missing.account}>
              <option value="">{accounts.isPending ? 'Loading accounts...' : 'Select an account'}</option>
              {accounts.data?.map((account) => (
                <option key={account.id} value={account.account_name}>
                  {account.account_name}
                </option>
              ))}
            </Select>
          )}
        </Field>
      )}
      <Field label="List Name" required hint={BAN_LIST_NAME_RULE} error={listNameError}>
        {(control) => (
          <Input
            {...control}
            {...form.register('list_name')}
            invalid={control.invalid || missing.listName}
            placeholder="blocked_ips"
            maxLength={BAN_LIST_NAME_MAX}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
          />
        )}
      </Field>
      <Field label="Type" required>
        {(control) => (
          <Select {...control} {...form.register('kind')}>
            {BAN_LIST_KINDS.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </Select>
        )}
      </Field>
      {full && (
        <p
          role="note"
          className="rounded-control border border-warning/30 bg-warning-soft px-3 py-2 text-sm text-warning"
        >
          {full}
        </p>
      )}
      {anyMissing && <ErrorMessage>All fields are required.</ErrorMessage>}
      {addBanList.isError && (
        <ErrorMessage>{errorMessage(addBanList.error, 'Failed to add ban list.')}</ErrorMessage>
      )}
    </FormDialog>
  );
}
