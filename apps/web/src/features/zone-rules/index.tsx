import { useParams } from 'react-router';
import { Tabs } from 'radix-ui';
import { ErrorMessage } from '../../components/ui/error-message';
import { PageHeader } from '../../components/ui/page-header';
import { FirewallRulesPanel } from './components/firewall-rules-panel';
import { PageRulesPanel } from './components/page-rules-panel';

const tabClassName =
  '-mb-px border-b-2 border-transparent px-4 py-2.5 text-sm font-medium whitespace-nowrap text-ink-muted transition-colors hover:text-ink data-[state=active]:border-brand data-[state=active]:text-brand';

/** Zone Rules of /cloudflare/zones/:zoneId/rules (spec section 2): firewall rules and page rules. */
export default function ZoneRulesScreen() {
  const { zoneId } = useParams();
  if (!zoneId) return <ErrorMessage>Zone ID not found.</ErrorMessage>;

  return (
    <>
      <PageHeader
        title={
          <>
            Rules for Zone ID: <span className="break-all">{zoneId}</span>
          </>
        }
        documentTitle="Zone Rules"
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
