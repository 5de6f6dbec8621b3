import { useParams } from 'react-router';
import { PlaceholderPanel } from '../../components/placeholder-panel';
import { PageHeader } from '../../components/ui/page-header';

/** Ban List Items of /cloudflare/banlists/:listId/items (spec section 2). Placeholder until the screen lands. */
export default function BanListItemsScreen() {
  const { listId } = useParams();
  return (
    <>
      <PageHeader title="Ban List Items" description={listId ? `List ${listId}` : undefined} />
      <PlaceholderPanel title="Ban List Items" />
    </>
  );
}
