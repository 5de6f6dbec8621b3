import { zodResolver } from '@hookform/resolvers/zod';
import {
  addBanListItemFormSchema,
  BAN_LIST_ITEM_COMMENT_MAX,
  capacityWarning,
  cidrRange,
  describeCidrRange,
  BAN_LIST_VALUE_LABELS,
  type BanListItem,
  type BanListKind,
  type ItemExpiry,
} from '@guardian/contract';
import { FormDialog } from '../../../components/ui/form-dialog';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Field, Input } from '../../../components/ui/input';
import { useState } from 'react';
import { useAddBanListItemMutation } from '../../../api/ban-list-items/ban-list-item-add-mutation';
import { useBanListQuery } from '../../../api/ban-lists/ban-lists-query';
import { useListCapacityQuery } from '../../../api/ip-search/list-capacity-query';
import { errorMessage } from '../../../lib/api';
import { useDialogForm } from '../../../lib/use-dialog-form';
import { ItemExpiryField } from './item-expiry-field';

/** The value field's example shows what the list takes; its label is the kind's (the spec's for ip lists). */
const VALUE_PLACEHOLDERS: Record<BanListKind, string> = {
  ip: '203.0.113.7 or 198.51.100.0/24',
  hostname: 'host.example.com',
  asn: 'AS13335',
  redirect: 'example.com/old -> https://example.com/new',
};

interface AddBanListItemDialogProps {
  listId: string;
  /** The list's kind when known, for the value's example. */
  kind: BanListKind | undefined;
  onClose: () => void;
  onAdded: (item: BanListItem) => void;
}

/** Add an item: a value and a comment, both required. Mount it only while open. */
export function AddBanListItemDialog({ listId, kind, onClose, onAdded }: AddBanListItemDialogProps) {
  const addItem = useAddBanListItemMutation(listId);
  const form = useDialogForm({
    resolver: zodResolver(addBanListItemFormSchema(kind ?? 'ip')),
    defaultValues: { ip: '', comment: '', expires: 'never' },
    saves: [addItem],
  });
  const { errors } = form.formState;
  // A typed CIDR says what it covers; a range wider than a /16 (/48) is confirmed before it is banned,
  // so a typo cannot ban 16 million addresses unseen.
  const range = (kind ?? 'ip') === 'ip' ? cidrRange(form.watch('ip')) : undefined;
  const [wideConfirmed, setWideConfirmed] = useState<string | null>(null);
  const needsConfirmation = range?.wide === true && wideConfirmed !== range.network;
  const full = useCapacityWarning(listId);

  return (
    <FormDialog
      title="Add Item"
      description="The item is added at Cloudflare, then to this list."
      onClose={onClose}
      onSubmit={form.submitWith((request) => {
        if (needsConfirmation) {
          form.setError('ip', { type: 'wide', message: 'Confirm the range below to ban all of it.' });
          return;
        }
        addItem.mutate(request, { onSuccess: onAdded });
      })}
      saving={addItem.isPending}
      savingLabel="Adding..."
    >
      <Field label={BAN_LIST_VALUE_LABELS[kind ?? 'ip']} required error={errors.ip?.message}>
        {(control) => (
          <Input
            {...control}
            {...form.register('ip')}
            placeholder={VALUE_PLACEHOLDERS[kind ?? 'ip']}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
          />
        )}
      </Field>
      {range && (
        <div
          role="note"
          className="space-y-2 rounded-control border border-line bg-canvas px-3 py-2 text-sm text-ink"
        >
          <p>
            {describeCidrRange(range)}
            {range.widened && ` What you typed is widened to ${range.network}.`}
          </p>
          {range.wide && (
            <label className="flex items-start gap-2 font-medium text-danger-hover">
              <input
                type="checkbox"
                className="mt-0.5"
                checked={wideConfirmed === range.network}
                onChange={(event) => setWideConfirmed(event.target.checked ? range.network : null)}
              />
              Ban all {range.addresses.toLocaleString('en-US')} addresses of {range.network}
            </label>
          )}
        </div>
      )}
      {full && (
        <p
          role="note"
          className="rounded-control border border-warning/30 bg-warning-soft px-3 py-2 text-sm text-warning"
        >
          {full}
        </p>
      )}
      <Field label="Comment" required error={errors.comment?.message}>
        {(control) => (
          <Input
            {...control}
            {...form.register('comment')}
            placeholder="Why it is listed"
            maxLength={BAN_LIST_ITEM_COMMENT_MAX}
            autoComplete="off"
          />
        )}
      </Field>
      <ItemExpiryField
        value={form.watch('expires') ?? 'never'}
        onChange={(value) =>
          // '' (a date not picked yet) fails the form's check, which then says so.
          form.setValue('expires', value as ItemExpiry, { shouldValidate: form.formState.isSubmitted })
        }
        error={errors.expires?.message}
        disabled={addItem.isPending}
      />
      {addItem.isError && (
        <ErrorMessage>{errorMessage(addItem.error, 'An unknown error occurred.')}</ErrorMessage>
      )}
    </FormDialog>
  );
}

/** The warning when one more item would pass the quota of the list's account (see list-capacity). */
function useCapacityWarning(listId: string): string | undefined {
  const list = useBanListQuery(listId).data;
  const capacity = useListCapacityQuery().data?.accounts.find(
    (account) => account.account_id === list?.account_id,
  );
  return capacity && capacityWarning(capacity, { items: 1 });
}
