import { ADDED_AT_CLOUDFLARE, type BanListItem } from '@guardian/contract';

/** Who added an item, as the Added by column and the item's detail say it. */
export function addedByText(item: Pick<BanListItem, 'added_via' | 'added_by'>): string {
  if (item.added_via === 'cloudflare') return ADDED_AT_CLOUDFLARE;
  return item.added_via === 'import' ? `${item.added_by} (import)` : item.added_by;
}
