import { PlaceholderPanel } from '../../components/placeholder-panel';
import { PageHeader } from '../../components/ui/page-header';

/** Ban Lists (spec section 2). Placeholder until the ban lists screen lands. */
export default function BanListsScreen() {
  return (
    <>
      <PageHeader title="Ban Lists" />
      <PlaceholderPanel title="Ban Lists" />
    </>
  );
}
