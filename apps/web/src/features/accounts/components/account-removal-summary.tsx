import type { CloudflareAccount } from '@guardian/contract';
import { useBanListsQuery } from '../../../api/ban-lists/ban-lists-query';
import { useZonesQuery } from '../../../api/zones/zones-query';

const count = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * What deleting an account removes from Guardian, with the numbers of its lists, items and zones
 * (from the mirrors the screens already read), and what stays at Cloudflare.
 */
export function AccountRemovalSummary({ account }: { account: CloudflareAccount }) {
  const banLists = useBanListsQuery();
  const zones = useZonesQuery();
  const lists = banLists.data?.filter((list) => list.account_id === account.account_id);
  const items = lists?.reduce((sum, list) => sum + list.items, 0);
  const zoneCount = zones.data?.filter((zone) => zone.account_id === account.account_id).length;
  const held =
    lists && items !== undefined && zoneCount !== undefined
      ? `its ${count(lists.length, 'ban list', 'ban lists')} with ${count(items, 'item', 'items')}, its ${count(zoneCount, 'zone', 'zones')}`
      : 'its ban lists with their items, its zones';
  return (
    <span className="block space-y-2">
      <span className="block">
        Remove {account.account_name} ({account.account_id}) from Guardian? {held[0]!.toUpperCase()}
        {held.slice(1)} and the snapshots that kept them are removed from Guardian.
      </span>
      <span className="block">
        Nothing is deleted at Cloudflare: the lists, items, zones and the API token stay there. Revoke the
        token at Cloudflare if it is no longer needed.
      </span>
    </span>
  );
}
