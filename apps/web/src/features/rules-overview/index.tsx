import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { RULES_OVERVIEW_PAGE_SIZE, RULES_OVERVIEW_SEARCH_MAX_LENGTH, type Zone } from '@guardian/contract';
import { Button } from '../../components/ui/button';
import { ErrorMessage } from '../../components/ui/error-message';
import { SearchInput } from '../../components/ui/input';
import { PageHeader } from '../../components/ui/page-header';
import { Pagination } from '../../components/ui/pagination';
import { PageSpinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useRulesOverviewBatches } from '../../api/rules-overview/rules-overview-query';
import { useZonesQuery } from '../../api/zones/zones-query';
import { ZoneRulesRow, type ZoneRowState } from './components/zone-rules-row';
import { counted } from '../../lib/counted';

/** Zones per request: small, so the progress moves and a slow zone holds back few others. */
const ZONES_PER_BATCH = 5;
const NO_ZONES: Zone[] = [];

function batchesOf(ids: string[]): string[][] {
  const batches: string[][] = [];
  for (let start = 0; start < ids.length; start += ZONES_PER_BATCH)
    batches.push(ids.slice(start, start + ZONES_PER_BATCH));
  return batches;
}

/**
 * Rules (/cloudflare/rules): every zone's firewall rules and page rules, read live from Cloudflare,
 * RULES_OVERVIEW_PAGE_SIZE zones a page, a few zones a request; a search finds rules by description or
 * expression (page rules by URL) in the zones of the page. A zone that fails shows its error in its row.
 */
export default function RulesOverviewScreen() {
  const zones = useZonesQuery();
  const [search, setSearch] = useState('');
  const needle = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);

  const allZones = zones.data ?? NO_ZONES;
  const pageCount = Math.max(1, Math.ceil(allZones.length / RULES_OVERVIEW_PAGE_SIZE));
  const currentPage = Math.min(page, pageCount);
  const pageZones = useMemo(
    () =>
      allZones.slice((currentPage - 1) * RULES_OVERVIEW_PAGE_SIZE, currentPage * RULES_OVERVIEW_PAGE_SIZE),
    [allZones, currentPage],
  );
  const batches = useMemo(() => batchesOf(pageZones.map((zone) => zone.id)), [pageZones]);
  const results = useRulesOverviewBatches(batches, needle);

  const rowStates = new Map<string, ZoneRowState>();
  let zonesRead = 0;
  batches.forEach((ids, index) => {
    const result = results[index];
    if (result?.data) {
      zonesRead += ids.length;
      for (const overview of result.data.zones) rowStates.set(overview.zone_id, { kind: 'loaded', overview });
    } else if (result?.isError) {
      zonesRead += ids.length;
      const message = errorMessage(result.error, 'Failed to fetch the rules of these zones.');
      for (const id of ids) rowStates.set(id, { kind: 'failed', message });
    }
  });
  const reading = zonesRead < pageZones.length;
  const searching = needle !== '';
  const matches = [...rowStates.values()].reduce((sum, state) => {
    if (state.kind !== 'loaded') return sum;
    const { firewallRules, pageRules } = state.overview;
    return (
      sum +
      ('error' in firewallRules ? 0 : firewallRules.matchCount) +
      ('error' in pageRules ? 0 : pageRules.matchCount)
    );
  }, 0);

  // While searching, a zone read without a match (and without an error) is left out of the list.
  const withoutMatches = (zone: Zone) => {
    const state = rowStates.get(zone.id);
    if (!searching || state?.kind !== 'loaded') return false;
    const { firewallRules, pageRules } = state.overview;
    return (
      !('error' in firewallRules) &&
      !('error' in pageRules) &&
      firewallRules.matchCount + pageRules.matchCount === 0
    );
  };
  const shownZones = pageZones.filter((zone) => !withoutMatches(zone));
  const hidden = pageZones.length - shownZones.length;

  const header = (
    <PageHeader
      title="Rules"
      description="The firewall rules and page rules of every zone, read live from Cloudflare."
    />
  );
  if (zones.isError) {
    return (
      <>
        {header}
        <ErrorMessage>
          Failed to fetch zones.{' '}
          <Button variant="secondary" className="ml-2" onClick={() => void zones.refetch()}>
            Retry
          </Button>
        </ErrorMessage>
      </>
    );
  }
  if (zones.isPending) {
    return (
      <>
        {header}
        <PageSpinner label="Loading zones" />
      </>
    );
  }
  return (
    <>
      {header}
      {allZones.length === 0 ? (
        <p className="rounded-card border border-line bg-surface p-6 text-sm text-ink-muted">
          No zones yet: add one on the{' '}
          <Link to="/cloudflare/zones" className="text-brand hover:underline">
            Zones
          </Link>{' '}
          page.
        </p>
      ) : (
        <>
          <div className="mb-4 flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
            <SearchInput
              aria-label="Search rules"
              placeholder="Search description or expression..."
              className="w-full sm:max-w-sm"
              maxLength={RULES_OVERVIEW_SEARCH_MAX_LENGTH}
              value={search}
              onSearch={setSearch}
            />
            <p className="text-sm text-ink-muted" aria-live="polite">
              {reading
                ? `Reading rules from Cloudflare: ${zonesRead} of ${pageZones.length} zones`
                : searching
                  ? `${counted(matches, 'matching rule')} in the ${pageZones.length} zones of this page`
                  : `Zones ${(currentPage - 1) * RULES_OVERVIEW_PAGE_SIZE + 1}-${(currentPage - 1) * RULES_OVERVIEW_PAGE_SIZE + pageZones.length} of ${allZones.length}`}
            </p>
          </div>
          {reading && (
            <div
              role="progressbar"
              aria-label="Reading rules from Cloudflare"
              aria-valuemin={0}
              aria-valuemax={pageZones.length}
              aria-valuenow={zonesRead}
              className="mb-4 h-1.5 overflow-hidden rounded-full bg-line"
            >
              <div
                className="h-full bg-brand transition-[width]"
                style={{ width: `${(100 * zonesRead) / pageZones.length}%` }}
              />
            </div>
          )}
          {searching && pageCount > 1 && (
            <p className="mb-3 text-xs text-ink-muted">
              The search looks through the zones of this page; the other pages are searched when you open
              them.
            </p>
          )}
          <ul className="space-y-3" aria-label="Zones and their rules">
            {shownZones.map((zone) => (
              <ZoneRulesRow
                key={zone.id}
                zone={zone}
                state={rowStates.get(zone.id) ?? { kind: 'loading' }}
                searching={searching}
              />
            ))}
          </ul>
          {hidden > 0 && (
            <p className="mt-3 text-sm text-ink-muted">
              {hidden} {hidden === 1 ? 'zone' : 'zones'} of this page without matching rules{' '}
              {hidden === 1 ? 'is' : 'are'} not shown.
            </p>
          )}
          <Pagination className="mt-4" page={currentPage} pageCount={pageCount} onPageChange={setPage} />
        </>
      )}
    </>
  );
}
