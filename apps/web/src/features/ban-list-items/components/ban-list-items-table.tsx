import {
  BAN_LIST_VALUE_LABELS,
  type BanListItem,
  type BanListItemSort,
  type BanListKind,
} from '@guardian/contract';
import { clsx } from 'clsx';
import { DeleteButton } from '../../../components/ui/button';
import { TableActionsCell, TableCell } from '../../../components/ui/table';
import { PagedDataTable, type PagedTableProps } from '../../../components/ui/paged-table';
import { Tooltip } from '../../../components/ui/tooltip';
import { addedByText } from '../lib/item-provenance';
import { formatExpiry } from './item-expiry-field';

/**
 * A value longer than this (a long hostname, a redirect, the longest IPv6 CIDRs) is cut by the cell
 * with an ellipsis on a laptop and shown whole in a tooltip: the column stays narrow enough for the
 * table to fit. Every IPv4 and most IPv6 values fit.
 */
const VALUE_SHOWN_WHOLE = 40;

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Cloudflare's ISO 8601 time in the reader's locale; anything unreadable as sent. */
export function formatCreatedOn(isoDateTime: string): string {
  const date = new Date(isoDateTime);
  return Number.isNaN(date.getTime()) ? isoDateTime : dateTimeFormat.format(date);
}

/** The value column's header: the spec's 'IP Address' for ip lists, the kind's own word for the others. */
export function valueColumnLabel(kind: BanListKind | undefined): string {
  return kind === undefined || kind === 'ip' ? 'IP Address' : BAN_LIST_VALUE_LABELS[kind];
}

interface BanListItemsTableProps extends PagedTableProps<BanListItem, BanListItemSort> {
  /** The list's kind (undefined while it loads): names the value column. */
  kind: BanListKind | undefined;
  /** True while a search finds nothing, to say so instead of "no items". */
  searching: boolean;
  onDelete: (item: BanListItem) => void;
  /** Opens the item's detail (its history, its expiry). */
  onOpen: (item: BanListItem) => void;
}

export function BanListItemsTable({ kind, searching, onDelete, onOpen, ...table }: BanListItemsTableProps) {
  return (
    <PagedDataTable
      caption="Ban list items"
      table={table}
      // "No" follows the order the items reached the list, so it sorts by id.
      numberSort="id"
      columns={(header) => [
        header('ip', valueColumnLabel(kind)),
        header('comment', 'Comment'),
        // On a tablet these two headers may take two lines, so that the seven columns fit.
        header('created_on', 'Created On', 'max-lg:whitespace-normal'),
        header('expires_at', 'Expires'),
        header('added_by', 'Added by', 'max-lg:whitespace-normal'),
        'Delete',
      ]}
      loadingText="Loading items..."
      empty={searching ? 'No items match your search.' : 'This list has no items.'}
    >
      {(item) => (
        <>
          <TableCell label={valueColumnLabel(kind)} className="font-mono text-xs">
            <ItemValueButton value={item.ip} onOpen={() => onOpen(item)} />
          </TableCell>
          {/* Comments and who added an item wrap anywhere: a long word (a URL, an e-mail) never widens the table. */}
          <TableCell label="Comment" className="max-w-md min-w-28 wrap-anywhere lg:min-w-40">
            {item.comment}
          </TableCell>
          <TableCell label="Created On" className="min-w-28 text-ink-muted">
            <time dateTime={item.created_on}>{formatCreatedOn(item.created_on)}</time>
          </TableCell>
          <TableCell label="Expires" className="min-w-24 text-ink-muted">
            {item.expires_at === null ? (
              formatExpiry(null)
            ) : (
              <time dateTime={item.expires_at}>{formatExpiry(item.expires_at)}</time>
            )}
          </TableCell>
          <TableCell
            label="Added by"
            className={
              item.added_via === 'cloudflare' ? 'text-ink-muted' : 'max-w-56 wrap-anywhere lg:min-w-48'
            }
          >
            {addedByText(item)}
          </TableCell>
          <TableActionsCell label="Delete" className="w-px py-1.5">
            <DeleteButton label={`Delete ${item.ip}`} onClick={() => onDelete(item)} />
          </TableActionsCell>
        </>
      )}
    </PagedDataTable>
  );
}

/** The item's value, opening its detail; a long one cut to the column's width, whole in a tooltip. */
function ItemValueButton({ value, onOpen }: { value: string; onOpen: () => void }) {
  const button = (
    <button
      type="button"
      className={clsx(
        'block text-left text-brand underline-offset-2 hover:underline focus-visible:underline',
        // Cut to the column on a wide screen; on a tablet and on a card it wraps, so an IPv6 address fits.
        'wrap-anywhere lg:max-w-72 lg:truncate cards:max-w-full cards:whitespace-normal',
      )}
      aria-label={`Details of ${value}`}
      onClick={onOpen}
    >
      {value}
    </button>
  );
  return value.length > VALUE_SHOWN_WHOLE ? <Tooltip content={value}>{button}</Tooltip> : button;
}
