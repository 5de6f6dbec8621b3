import {
  SERVER_INTEGRATIONS,
  SERVER_INTEGRATION_LABELS,
  serverInstallStep,
  type ServerIntegration,
} from '@guardian/contract';
import { PageHeader } from '../../components/ui/page-header';
import { CrowdsecBouncers } from './crowdsec-bouncers';

const WHAT: Record<ServerIntegration, string> = {
  fail2ban:
    "A Fail2Ban action (integrations/fail2ban): a jail's ban is sent to Guardian with its jail, failures and bantime; its unban removes the address's own item from every list of the group. It reports in when Fail2Ban starts. The key is read from a root-only file (mode 0600), never put on a command line.",
  crowdsec:
    "Guardian is a bouncer of CrowdSec's Local API: it pulls the decisions stream with a bouncer key and mirrors each ban decision (an address or a range) into the group's lists, the decision's time left as its expiry and its scenario in the comment; deleted or expired decisions are removed. Connect each CrowdSec server below.",
  webhook:
    'A SOAR tool or a script that signs its calls: POST /api/server-api/webhook/<server id> with {"type":"ban","address":...,"duration_seconds":...} or {"type":"unban","address":...}, signed with the server\'s signing secret under the Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature). A call more than 5 minutes old, signed wrongly or sent twice is refused and recorded. The sender below reads the secret from a file only its user reads (mode 0600), never from its command line. The secret is shown when the server is registered, or made anew from its row on the Server List.',
  script:
    'Your own script: POST /api/server-api/ban, /unban and /heartbeat with the server key as a bearer token, the key kept in a file only its user reads.',
};

/** /servers/integrations: what each integration does and its install step (with placeholders). */
export default function ServerIntegrationsPage() {
  return (
    <>
      <PageHeader
        title="Integrations"
        description="How a server sends its bans. Registering a server shows these steps with its own key."
      />
      <div className="grid gap-4">
        {SERVER_INTEGRATIONS.map((integration) => (
          <section
            key={integration}
            aria-labelledby={`integration-${integration}`}
            className="rounded-card border border-line bg-surface p-5 shadow-xs"
          >
            <h2 id={`integration-${integration}`} className="text-base font-semibold text-ink">
              {SERVER_INTEGRATION_LABELS[integration]}
            </h2>
            <p className="mt-1 text-sm text-ink-muted">{WHAT[integration]}</p>
            <pre
              aria-label={`Install step for ${SERVER_INTEGRATION_LABELS[integration]}`}
              className="mt-3 overflow-auto rounded-control bg-canvas p-3 font-mono text-xs whitespace-pre-wrap break-all"
            >
              {serverInstallStep(integration, window.location.origin)}
            </pre>
            {integration === 'crowdsec' && (
              <div className="mt-4">
                <CrowdsecBouncers />
              </div>
            )}
          </section>
        ))}
      </div>
    </>
  );
}
