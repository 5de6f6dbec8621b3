import { zodResolver } from '@hookform/resolvers/zod';
import {
  addBanListItemRequestSchema,
  BAN_LIST_ITEM_COMMENT_MAX,
  type BanListItem,
  type BanListKind,
} from '@guardian/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Field, Input } from '../../../components/ui/input';
import { useAddBanListItemMutation } from '../../../api/ban-list-items/ban-list-item-add-mutation';
import { errorMessage } from '../../../lib/api';
import { useDialogForm } from '../../../lib/use-dialog-form';

/** The value field keeps the spec's label for every kind; its example shows what the list takes. */
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
    resolver: zodResolver(addBanListItemRequestSchema),
    defaultValues: { ip: '', comment: '' },
    saves: [addItem],
  });
  const { errors } = form.formState;

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Add Item"
      description="The item is added at Cloudflare, then to this list."
      size="sm"
      busy={addItem.isPending}
      onSubmit={form.submitWith((request) => addItem.mutate(request, { onSuccess: onAdded }))}
      footer={
        <>
          <Button variant="secondary" disabled={addItem.isPending} onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={addItem.isPending}>
            {addItem.isPending ? 'Adding...' : 'Add Item'}
          </Button>
        </>
      }
    >
      <Field label="IP Address / CIDR" required error={errors.ip?.message}>
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
      {addItem.isError && (
        <ErrorMessage>{errorMessage(addItem.error, 'An unknown error occurred.')}</ErrorMessage>
      )}
    </Dialog>
  );
}
