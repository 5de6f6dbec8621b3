import { Link } from 'react-router';
import {
  EXPRESSION_DISPLAY_LENGTH,
  FIREWALL_ACTION_LABELS,
  type FirewallRulesSummary,
  type PageRulesSummary,
  type RulesOverviewZone,
  type Zone,
} from '@guardian/contract';
import { Badge } from '../../../components/ui/badge';
import { Spinner } from '../../../components/ui/spinner';
import { counted } from '../../../lib/counted';

const cut = (text: string) =>
  text.length > EXPRESSION_DISPLAY_LENGTH ? `${text.slice(0, EXPRESSION_DISPLAY_LENGTH)}...` : text;

/** What a row knows so far: nothing yet, the batch's failure, or the zone's overview. */
export type ZoneRowState =
  { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'loaded'; overview: RulesOverviewZone };

interface ZoneRulesRowProps {
  zone: Zone;
  state: ZoneRowState;
  searching: boolean;
}

function Count({
  label,
  summary,
  searching,
}: {
  label: string;
  summary: FirewallRulesSummary | PageRulesSummary;
  searching: boolean;
}) {
  if ('error' in summary) {
    return (
      <p className="text-sm text-danger-hover">
        <span className="font-medium">{label}:</span> {summary.error}
      </p>
    );
  }
  return (
    <p className="text-sm text-ink">
      <span className="text-ink-muted">{label}:</span> <span className="font-semibold">{summary.total}</span>
      {searching && (
        <span className="text-ink-muted"> ({counted(summary.matchCount, 'match', 'matches')})</span>
      )}
    </p>
  );
}

/** Said under the matches listed when the search matched more of a zone's rules than the overview lists. */
function MoreMatches({
  matched,
  rules,
  rulesPath,
}: {
  matched: { matchCount: number; matches: readonly unknown[] };
  rules: string;
  rulesPath: string;
}) {
  const more = matched.matchCount - matched.matches.length;
  if (more <= 0) return null;
  return (
    <li className="text-ink-muted">
      and {more} more {rules}:{' '}
      <Link to={rulesPath} className="text-brand hover:underline">
        open the zone’s rules
      </Link>
    </li>
  );
}

/** One zone of the overview: its counts, links into its rules, and with a search the matching rules. */
export function ZoneRulesRow({ zone, state, searching }: ZoneRulesRowProps) {
  const rulesPath = `/cloudflare/zones/${encodeURIComponent(zone.id)}/rules`;
  const overview = state.kind === 'loaded' ? state.overview : null;
  const firewall = overview && !('error' in overview.firewallRules) ? overview.firewallRules : null;
  const pages = overview && !('error' in overview.pageRules) ? overview.pageRules : null;
  return (
    <li className="rounded-card border border-line bg-surface px-4 py-3" aria-label={zone.domain}>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0">
          <Link to={rulesPath} className="font-medium break-words text-brand hover:underline">
            {zone.domain}
          </Link>
          <p className="text-xs text-ink-muted">{zone.accountName}</p>
        </div>
        <div className="flex flex-col gap-1 sm:flex-row sm:flex-wrap sm:justify-end sm:gap-x-6">
          {state.kind === 'loading' && (
            <p className="flex items-center gap-2 text-sm text-ink-muted">
              <Spinner size="sm" label={null} /> Loading...
            </p>
          )}
          {state.kind === 'failed' && <p className="text-sm text-danger-hover">{state.message}</p>}
          {overview && (
            <>
              <Count label="Firewall rules" summary={overview.firewallRules} searching={searching} />
              <Count label="Page rules" summary={overview.pageRules} searching={searching} />
            </>
          )}
        </div>
      </div>
      {searching && (firewall?.matches.length || pages?.matches.length) ? (
        <ul className="mt-3 space-y-2 border-t border-line pt-3 text-sm">
          {firewall?.matches.map((rule) => (
            <li key={rule.id} className="flex flex-col gap-1 sm:flex-row sm:items-baseline sm:gap-3">
              <Badge tone="blue" className="self-start">
                Firewall #{rule.priority}
              </Badge>
              <span className="min-w-0">
                <span className="font-medium text-ink">{rule.description || '(no description)'}</span>{' '}
                <span className="text-ink-muted">
                  · {FIREWALL_ACTION_LABELS[rule.action]}
                  {rule.paused ? ' · Paused' : ''}
                </span>
                <code title={rule.expression} className="block font-mono text-xs break-all text-ink-muted">
                  {cut(rule.expression)}
                </code>
              </span>
            </li>
          ))}
          {firewall && <MoreMatches matched={firewall} rules="firewall rules" rulesPath={rulesPath} />}
          {pages?.matches.map((rule) => (
            <li key={rule.id} className="flex flex-col gap-1 sm:flex-row sm:items-baseline sm:gap-3">
              <Badge tone="grey" className="self-start">
                Page rule #{rule.priority}
              </Badge>
              <span className="min-w-0 break-words">
                <span className="font-medium text-ink">{rule.url}</span>{' '}
                <span className="text-ink-muted">· {rule.status === 'active' ? 'Active' : 'Disabled'}</span>
              </span>
            </li>
          ))}
          {pages && <MoreMatches matched={pages} rules="page rules" rulesPath={rulesPath} />}
        </ul>
      ) : null}
    </li>
  );
}
