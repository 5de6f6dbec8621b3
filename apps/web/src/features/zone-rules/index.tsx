import { Link, useParams } from 'react-router';
import { Tabs } from 'radix-ui';
import { ArrowLeft } from 'lucide-react';
import { buttonClassName } from '../../components/ui/button';
import { useZoneDomain } from '../../api/zones/zone-domain';
import { ErrorMessage } from '../../components/ui/error-message';
import { PageHeader } from '../../components/ui/page-header';
import { FirewallRulesPanel } from './firewall-rules/firewall-rules-panel';
import { PageRulesPanel } from './page-rules/page-rules-panel';

const tabClassName =
  '-mb-px border-b-2 border-transparent px-4 py-2.5 text-sm font-medium whitespace-nowrap text-ink-muted transition-colors hover:text-ink data-[state=active]:border-brand data-[state=active]:text-brand';

/** Zone Rules of /cloudflare/zones/:zoneId/rules (spec section 2): firewall rules and page rules. */
export default function ZoneRulesScreen() {
  const { zoneId } = useParams();
  if (!zoneId) return <ErrorMessage>Zone ID not found.</ErrorMessage>;
  return <ZoneRules zoneId={zoneId} />;
}

function ZoneRules({ zoneId }: { zoneId: string }) {
  const domain = useZoneDomain(zoneId);

  return (
    <>
      <PageHeader
        title={
          <>
            {/* The id never breaks mid-string: on a phone it takes a line of its own, in a smaller mono
                face; an id too long for the line (not Cloudflare's) is cut, whole in its tooltip. */}
            Rules for Zone ID:{' '}
            <span
              title={zoneId}
              className="inline-block max-w-full truncate align-bottom font-mono text-base sm:font-sans sm:text-2xl"
            >
              {zoneId}
            </span>
          </>
        }
        // The spec's title stays; the domain beside it says which zone the id is.
        description={domain}
        documentTitle={domain ? `Rules of ${domain}` : 'Zone Rules'}
        actions={
          <Link to="/cloudflare/zones" className={buttonClassName('secondary')}>
            <ArrowLeft aria-hidden="true" className="size-4" />
            Back to Zones
          </Link>
        }
      />
      <Tabs.Root defaultValue="firewall">
        <Tabs.List aria-label="Rule types" className="mb-5 flex gap-1 overflow-x-auto border-b border-line">
          <Tabs.Trigger value="firewall" className={tabClassName}>
            Firewall Rules
          </Tabs.Trigger>
          <Tabs.Trigger value="page" className={tabClassName}>
            Page Rules
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="firewall" className="rounded-card">
          <FirewallRulesPanel zoneId={zoneId} />
        </Tabs.Content>
        <Tabs.Content value="page" className="rounded-card">
          <PageRulesPanel zoneId={zoneId} />
        </Tabs.Content>
      </Tabs.Root>
    </>
  );
}
