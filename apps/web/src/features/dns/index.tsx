import { useParams } from 'react-router';
import { PlaceholderPanel } from '../../components/placeholder-panel';
import { PageHeader } from '../../components/ui/page-header';

/** DNS Records of /cloudflare/zones/:zoneId/dns (spec section 2). Placeholder until the screen lands. */
export default function DnsRecordsScreen() {
  const { zoneId } = useParams();
  return (
    <>
      <PageHeader title="DNS Records" description={zoneId ? `Zone ${zoneId}` : undefined} />
      <PlaceholderPanel title="DNS Records" />
    </>
  );
}
