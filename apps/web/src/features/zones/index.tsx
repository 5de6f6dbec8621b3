import { PlaceholderPanel } from '../../components/placeholder-panel';
import { PageHeader } from '../../components/ui/page-header';

/** Zones (spec section 2). Placeholder until the zones screen lands. */
export default function ZonesScreen() {
  return (
    <>
      <PageHeader title="Zones" />
      <PlaceholderPanel title="Zones" />
    </>
  );
}
