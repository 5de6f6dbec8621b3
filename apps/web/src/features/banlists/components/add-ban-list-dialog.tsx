import { useState } from 'react';
import {
  addBanListRequestSchema,
  BAN_LIST_KINDS,
  BAN_LIST_NAME_MAX,
  BAN_LIST_NAME_RULE,
  type BanList,
  type BanListKind,
} from '@guardian/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Field, Input, Select } from '../../../components/ui/input';
import { errorMessage } from '../../../lib/api';
import { useAccountsQuery } from '../../../api/accounts/accounts-query';
import { useAddBanListMutation } from '../../../api/ban-lists/ban-list-add-mutation';

interface AddBanListDialogProps {
  onClose: () => void;
  onAdded: (banList: BanList) => void;
}

/** Add a ban list: an account, a list name and a type. Mount it only while open. */
export function AddBanListDialog({ onClose, onAdded }: AddBanListDialogProps) {
  const accounts = useAccountsQuery();
  const addBanList = useAddBanListMutation();
  const [accountName, setAccountName] = useState('');
  const [listName, setListName] = useState('');
  const [kind, setKind] = useState<BanListKind>('ip');
  /** Empty fields at the last submit: marked, under the spec's one message. */
  const [missing, setMissing] = useState({ account: false, listName: false });
  const [listNameError, setListNameError] = useState<string | undefined>();

  const submit = () => {
    const nowMissing = { account: !accountName, listName: !listName.trim() };
    setMissing(nowMissing);
    setListNameError(undefined);
    if (nowMissing.account || nowMissing.listName) return;
    const parsed = addBanListRequestSchema.safeParse({
      account_name: accountName,
      list_name: listName,
      kind,
    });
    if (!parsed.success) {
      setListNameError(parsed.error.issues[0]?.message);
      return;
    }
    addBanList.mutate(parsed.data, { onSuccess: onAdded });
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Add Ban List"
      description="Create a list at Cloudflare in one of your accounts."
      size="sm"
      busy={addBanList.isPending}
      onSubmit={submit}
      footer={
        <>
          <Button variant="secondary" disabled={addBanList.isPending} onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={addBanList.isPending} disabled={accounts.isError}>
            {addBanList.isPending ? 'Adding...' : 'Add Ban List'}
          </Button>
        </>
      }
    >
      {accounts.isError ? (
        <ErrorMessage>Could not load accounts.</ErrorMessage>
      ) : (
        <Field
          label="Account"
          required
          hint={accounts.data?.length === 0 ? 'Add an account under Cloudflare Accounts first.' : undefined}
        >
          {(control) => (
            <Select
              {...control}
              invalid={missing.account}
              value={accountName}
              onChange={(event) => setAccountName(event.target.value)}
            >
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
            invalid={control.invalid || missing.listName}
            value={listName}
            placeholder="blocked_ips"
            maxLength={BAN_LIST_NAME_MAX}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            onChange={(event) => setListName(event.target.value)}
          />
        )}
      </Field>
      <Field label="Type" required>
        {(control) => (
          <Select {...control} value={kind} onChange={(event) => setKind(event.target.value as BanListKind)}>
            {BAN_LIST_KINDS.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </Select>
        )}
      </Field>
      {(missing.account || missing.listName) && <ErrorMessage>All fields are required.</ErrorMessage>}
      {addBanList.isError && (
        <ErrorMessage>{errorMessage(addBanList.error, 'Failed to add ban list.')}</ErrorMessage>
      )}
    </Dialog>
  );
}
