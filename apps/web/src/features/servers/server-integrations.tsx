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
    'A SOAR tool or any HTTP client: POST /api/server-api/ban or /unban with the server key as a bearer token. Signed requests (Standard Webhooks) are to come.',
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
