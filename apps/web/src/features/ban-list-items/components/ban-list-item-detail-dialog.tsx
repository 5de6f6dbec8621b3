import { zodResolver } from '@hookform/resolvers/zod';
import {
  ADDED_AT_CLOUDFLARE,
  changeBanListItemExpiryRequestSchema,
  type BanListItem,
  type BanListItemHistoryEvent,
  type ItemAddedVia,
  type ItemExpiry,
} from '@guardian/contract';
import { ErrorMessage } from '../../../components/ui/error-message';
import { FormDialog } from '../../../components/ui/form-dialog';
import { Spinner } from '../../../components/ui/spinner';
import { useChangeBanListItemExpiryMutation } from '../../../api/ban-list-items/ban-list-item-expiry-mutation';
import { useBanListItemHistoryQuery } from '../../../api/ban-list-items/ban-list-item-history-query';
import { errorMessage } from '../../../lib/api';
import { useDialogForm } from '../../../lib/use-dialog-form';
import { formatCreatedOn } from './ban-list-items-table';
import { addedByText } from '../lib/item-provenance';
import { formatExpiry, ItemExpiryField } from './item-expiry-field';

const VIA_LABELS: Record<ItemAddedVia, string> = {
  console: 'the console',
  import: 'an import',
  api: 'the API',
  cloudflare: 'Cloudflare',
};

/** One line of the history, in words. */
export function historyText(event: BanListItemHistoryEvent): string {
  const until = event.expires_at === null ? 'never expires' : `expires ${formatExpiry(event.expires_at)}`;
  switch (event.event) {
    case 'added':
      return `Added by ${event.actor} through ${VIA_LABELS[event.added_via ?? 'console']}; ${until}.`;
    case 'expiry_changed':
      return `${event.actor} changed the expiry: ${until === 'never expires' ? 'never expires' : until}.`;
    case 'removed':
      return `Removed by ${event.actor}.`;
    case 'expired':
      return `Removed by ${event.actor}: its expiry had passed.`;
    case 'restored':
      return `Restored by ${event.actor}; ${until}.`;
  }
}

interface BanListItemDetailDialogProps {
  listId: string;
  item: BanListItem;
  /** The value column's label (IP Address, Hostname...). */
  valueLabel: string;
  onClose: () => void;
  onChanged: (item: BanListItem) => void;
}

/** An item's detail, opened from its row: what it is, who added it, its expiry (changeable) and history. */
export function BanListItemDetailDialog({
  listId,
  item,
  valueLabel,
  onClose,
  onChanged,
}: BanListItemDetailDialogProps) {
  const history = useBanListItemHistoryQuery(listId, item.id);
  const change = useChangeBanListItemExpiryMutation(listId, item.id);
  const form = useDialogForm({
    resolver: zodResolver(changeBanListItemExpiryRequestSchema),
    defaultValues: { expires: item.expires_at ?? 'never' },
    saves: [change],
  });

  return (
    <FormDialog
      title="Item Details"
      description={item.ip}
      size="md"
      onClose={onClose}
      onSubmit={form.submitWith(({ expires }) => change.mutate(expires, { onSuccess: onChanged }))}
      saving={change.isPending}
      submitLabel="Save Expiry"
      cancelLabel="Close"
    >
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
        <dt className="text-ink-muted">{valueLabel}</dt>
        <dd className="font-mono text-xs break-words">{item.ip}</dd>
        <dt className="text-ink-muted">Comment</dt>
        <dd className="break-words">{item.comment}</dd>
        <dt className="text-ink-muted">Created On</dt>
        <dd>{formatCreatedOn(item.created_on)}</dd>
        <dt className="text-ink-muted">Added by</dt>
        <dd className="break-words">{addedByText(item)}</dd>
        <dt className="text-ink-muted">Expires</dt>
        <dd>{formatExpiry(item.expires_at)}</dd>
      </dl>
      <ItemExpiryField
        label="Change expiry"
        value={form.watch('expires')}
        onChange={(value) =>
          // '' (a date not picked yet) fails the form's check, which then says so.
          form.setValue('expires', value as ItemExpiry, { shouldValidate: form.formState.isSubmitted })
        }
        error={form.formState.errors.expires?.message}
        disabled={change.isPending}
      />
      {change.isError && (
        <ErrorMessage>{errorMessage(change.error, 'An unknown error occurred.')}</ErrorMessage>
      )}
      <section aria-labelledby="item-history-heading" className="space-y-2">
        <h3 id="item-history-heading" className="text-sm font-semibold text-ink">
          History
        </h3>
        {history.isPending ? (
          <Spinner label="Loading history..." />
        ) : history.isError ? (
          <ErrorMessage>{errorMessage(history.error, 'The history could not be loaded.')}</ErrorMessage>
        ) : history.data.events.length === 0 ? (
          <p className="text-sm text-ink-muted">
            {item.added_via === 'cloudflare'
              ? `${ADDED_AT_CLOUDFLARE}: Guardian has no history of it yet.`
              : 'No history yet.'}
          </p>
        ) : (
          <ol className="space-y-1.5 text-sm">
            {history.data.events.map((event, index) => (
              <li key={index} className="flex flex-col gap-0.5 sm:flex-row sm:gap-3">
                <time dateTime={event.at} className="shrink-0 text-ink-muted tabular-nums">
                  {formatCreatedOn(event.at)}
                </time>
                <span className="break-words">{historyText(event)}</span>
              </li>
            ))}
          </ol>
        )}
      </section>
    </FormDialog>
  );
}
