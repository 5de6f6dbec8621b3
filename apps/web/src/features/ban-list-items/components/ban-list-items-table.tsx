import {
  BAN_LIST_VALUE_LABELS,
  type BanListItem,
  type BanListItemSort,
  type BanListKind,
} from '@guardian/contract';
import type { ReactNode } from 'react';
import { DeleteButton } from '../../../components/ui/button';
import { TableActionsCell, TableCell } from '../../../components/ui/table';
import { PagedDataTable, type PagedTableProps } from '../../../components/ui/paged-table';
import { Tooltip } from '../../../components/ui/tooltip';
import { addedByText } from '../lib/item-provenance';
import { formatExpiry } from './item-expiry-field';

/**
 * A value longer than this (a long hostname, a redirect) is cut after two lines, and whole in a
 * tooltip. Shorter ones (every IP address) wrap whole, on as many lines as the column needs.
 */
const VALUE_SHOWN_WHOLE = 40;

/** Where a value may wrap: after an IPv6 address's colons, a hostname's dots, a URL's slashes. */
const VALUE_BREAKS = /(?<=[:./])/;

/**
 * The value with a line break allowed after each separator, so that it wraps between the groups of
 * an address rather than inside one (a group longer than its column still wraps anywhere).
 */
export function breakableValue(value: string): ReactNode[] {
  return value
    .split(VALUE_BREAKS)
    .flatMap((part, index) => (index === 0 ? [part] : [<wbr key={index} />, part]));
}

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
        // Headers of two words may take two lines where the table is narrow, so that the seven columns
        // fit (important: a header's text is kept on one line by default).
        header('ip', valueColumnLabel(kind), 'whitespace-normal!'),
        header('comment', 'Comment'),
        header('created_on', 'Created On', 'whitespace-normal!'),
        header('expires_at', 'Expires'),
        header('added_by', 'Added by', 'whitespace-normal!'),
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
          {/*
            Comments wrap anywhere: a long word (a URL) never widens the table. No cell's width follows the screen's: with the sidebar open a laptop's table is as
            narrow as a tablet's, and it must still fit.
          */}
          <TableCell label="Comment" className="max-w-md min-w-28 wrap-anywhere">
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
            className={item.added_via === 'cloudflare' ? 'text-ink-muted' : 'max-w-56'}
          >
            {item.added_via === 'cloudflare' ? addedByText(item) : <AddedBy text={addedByText(item)} />}
          </TableCell>
          <TableActionsCell label="Delete" className="w-px py-1.5">
            <DeleteButton label={`Delete ${item.ip}`} onClick={() => onDelete(item)} />
          </TableActionsCell>
        </>
      )}
    </PagedDataTable>
  );
}

/**
 * The item's value, opening its detail. It wraps between its groups where the column is narrow; a
 * long one is cut after two lines (whole on a card) and whole in a tooltip.
 */
function ItemValueButton({ value, onOpen }: { value: string; onOpen: () => void }) {
  const long = value.length > VALUE_SHOWN_WHOLE;
  const button = (
    <button
      type="button"
      // At least an IPv4 address wide (15 characters of its monospace font): those never wrap.
      className="block max-w-72 min-w-[15ch] text-left text-brand underline-offset-2 wrap-anywhere hover:underline focus-visible:underline cards:max-w-full"
      aria-label={`Details of ${value}`}
      onClick={onOpen}
    >
      <span className={long ? 'line-clamp-2 cards:line-clamp-none' : undefined}>{breakableValue(value)}</span>
    </button>
  );
  return long ? <Tooltip content={value}>{button}</Tooltip> : button;
}

/**
 * Who added an item: their e-mail's name, then its @domain below it, each on one line and cut with an
 * ellipsis where the column is narrower (whole in the tooltip and to a screen reader), so no e-mail
 * breaks mid-name. The parts themselves do not size the column (`w-0 min-w-full`); a hidden copy of
 * the longer one does: as wide as it where the table has room, as narrow as the table needs where not.
 */
function AddedBy({ text }: { text: string }) {
  const parts = text.split(/(?=@)/);
  const longest = parts.reduce((a, b) => (b.length > a.length ? b : a));
  return (
    <span title={text} className="block">
      {parts.map((part, index) => (
        <span key={index} className="block w-0 min-w-full truncate">
          {part}
        </span>
      ))}
      <span aria-hidden className="block h-0 overflow-hidden wrap-anywhere">
        {longest}
      </span>
    </span>
  );
}
