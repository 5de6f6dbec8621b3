import { useParams } from 'react-router';
import { PlaceholderPanel } from '../../components/placeholder-panel';
import { PageHeader } from '../../components/ui/page-header';

/** Zone Rules of /cloudflare/zones/:zoneId/rules (spec section 2). Placeholder until the rules screen lands. */
export default function ZoneRulesScreen() {
  const { zoneId } = useParams();
  return (
    <>
      <PageHeader title={`Rules for Zone ID: ${zoneId ?? ''}`} documentTitle="Zone Rules" />
      <PlaceholderPanel title="Firewall and page rules" />
    </>
  );
}
