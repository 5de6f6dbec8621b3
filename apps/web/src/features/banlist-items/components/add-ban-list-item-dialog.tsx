import { useState } from 'react';
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
import { errorMessage } from '../../../lib/api';
import { useAddBanListItemMutation } from '../../../api/ban-list-items/ban-list-item-add-mutation';
import { fieldErrorsOf } from '../../../lib/field-errors';

type FieldErrors = Partial<Record<'ip' | 'comment', string>>;

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
  const [ip, setIp] = useState('');
  const [comment, setComment] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});

  const submit = () => {
    const parsed = addBanListItemRequestSchema.safeParse({ ip, comment });
    if (!parsed.success) {
      setErrors(fieldErrorsOf<keyof FieldErrors>(parsed.error.issues));
      return;
    }
    setErrors({});
    addItem.mutate(parsed.data, { onSuccess: onAdded });
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Add Item"
      description="The item is added at Cloudflare, then to this list."
      size="sm"
      busy={addItem.isPending}
      onSubmit={submit}
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
      <Field label="IP Address / CIDR" required error={errors.ip}>
        {(control) => (
          <Input
            {...control}
            value={ip}
            placeholder={VALUE_PLACEHOLDERS[kind ?? 'ip']}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            onChange={(event) => setIp(event.target.value)}
          />
        )}
      </Field>
      <Field label="Comment" required error={errors.comment}>
        {(control) => (
          <Input
            {...control}
            value={comment}
            placeholder="Why it is listed"
            maxLength={BAN_LIST_ITEM_COMMENT_MAX}
            autoComplete="off"
            onChange={(event) => setComment(event.target.value)}
          />
        )}
      </Field>
      {addItem.isError && (
        <ErrorMessage>{errorMessage(addItem.error, 'An unknown error occurred.')}</ErrorMessage>
      )}
    </Dialog>
  );
}
