/**
 * The benchmark's options (`node --import tsx bench/run.ts --help`), its budgets and the section names,
 * read once from the command line. Every section reads its sizes and budgets from here.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ITEM_SEARCH_DEBOUNCE_MS, PAGE_SIZE as PAGE_SIZES } from '@guardian/contract';
import { LIST_ITEMS_PER_PAGE } from '../apps/server/src/cloudflare/answers';
import { ROOT } from './lib/stack';

/** The sections in the order they run; each has its module in sections/ (sections/index.ts). */
export const SECTIONS = [
  'sync',
  'reads',
  'zones',
  'writes',
  'jobs',
  'web',
  'fairness',
  'audit',
  'ipsearch',
  'expiry',
  'import',
  'reports',
  'servers',
  'alert-mail',
  'alerts',
] as const;
export type Section = (typeof SECTIONS)[number];

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    items: { type: 'string', default: '500000' },
    zones: { type: 'string', default: '1000' },
    'audit-rows': { type: 'string', default: '2000000' },
    'ipsearch-items': { type: 'string', default: '1000000' },
    'export-items': { type: 'string', default: '500000' },
    'servers-minutes': { type: 'string', default: '3' },
    'alert-rows': { type: 'string', default: '100000' },
    only: { type: 'string' },
    skip: { type: 'string' },
    repeat: { type: 'string', default: '5' },
    'no-write': { type: 'boolean', default: false },
    'web-dist': { type: 'string' },
    results: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

if (args.help) {
  console.log(`npm run bench [-- options]     (or: node --import tsx bench/run.ts [options] after a build)

  --duration=S      seconds of load per read figure (default 5; each also gets a 2 s warm-up)
  --connections=N   concurrent connections of the read load (default 50)
  --items=N         items of the big ban list (default 500000; smaller for a quick check)
  --zones=N         zones of the zones user (default 1000)
  --audit-rows=N    events in the audit trail (default 2000000)
  --ipsearch-items=N  items over the 200 lists "Where is this address?" searches (default 1000000)
  --export-items=N  items of the list the export streams (default 500000)
                    quick check: --only=ipsearch --items=2000 --ipsearch-items=100000 --export-items=50000 --duration=2
  --servers-minutes=M  minutes of 1,000 bans a minute from 50 servers (default 3; 0.5 for a quick check)
  --alert-rows=N    one person's alerts the alerts page reads (default 100000)
  --repeat=N        times each write is repeated (default 5; the median is reported)
  --only=a,b        run only these sections: ${SECTIONS.join(', ')}
  --skip=a,b        skip these sections
  --no-write        print the table but write nothing under bench/results/
  --web-dist=DIR    the built web app to serve (default apps/web/dist, which npm run bench builds)
  --results=DIR     where the JSON goes (default bench/results)
  DATABASE_URL=postgres://...  runs on PostgreSQL (own schema, dropped at the end); else PGlite in a temp folder
  CHROMIUM_PATH=...            Chromium to drive (default /usr/bin/chromium)`);
  process.exit(0);
}

const positive = (name: string, text: string | undefined): number => {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`--${name} must be a positive number, not ${text}`);
  return value;
};

export const DURATION_S = positive('duration', args.duration);
export const CONNECTIONS = positive('connections', args.connections);
export const BIG_LIST_ITEMS = Math.floor(positive('items', args.items));
export const SMALL_LIST_ITEMS = Math.min(10_000, BIG_LIST_ITEMS);
export const ZONE_COUNT = Math.floor(positive('zones', args.zones));
export const REPEAT = Math.floor(positive('repeat', args.repeat));
export const AUDIT_ROWS = Math.floor(positive('audit-rows', args['audit-rows']));
export const IPSEARCH_ITEMS = Math.floor(positive('ipsearch-items', args['ipsearch-items']));
export const EXPORT_ITEMS = Math.floor(positive('export-items', args['export-items']));
export const SERVERS_MINUTES = positive('servers-minutes', args['servers-minutes']);
export const ALERT_ROWS = Math.floor(positive('alert-rows', args['alert-rows']));
const picked = (list: string | undefined) => new Set(list ? list.split(',').map((s) => s.trim()) : []);
const only = picked(args.only);
const skipped = picked(args.skip);
for (const name of [...only, ...skipped]) {
  if (!SECTIONS.includes(name as Section))
    throw new Error(`Unknown section "${name}": use ${SECTIONS.join(', ')}`);
}
export const runs = (section: Section) => (only.size === 0 || only.has(section)) && !skipped.has(section);

/** Cloudflare's largest page of list items: the fewest calls a cursor walk of n items can make. */
export const CLOUDFLARE_ITEMS_PAGE = LIST_ITEMS_PER_PAGE;
/** The items screen's page, and the wait before its search asks (the web's own constants). */
export const PAGE_SIZE = PAGE_SIZES.banListItems;
export const SEARCH_DEBOUNCE_MS = ITEM_SEARCH_DEBOUNCE_MS;
/** The zones screen's page (the web's own constant). */
export const ZONES_PAGE_SIZE = PAGE_SIZES.zones;
/** How often the benchmark asks about a running job, as a screen showing its progress would (~100 ms). */
export const JOB_PROGRESS_POLL_MS = 100;

export const BUDGET = {
  readP99Ms: 50,
  readBaselineShare: 0.5,
  /** Issue 36: the answer caches off, one person asking each read 20 times one after another. */
  coldSequentialP99Ms: 50,
  coldSequentialRequests: 20,
  /** The same at `--connections` at once, by database: PGlite answers one statement at a time. */
  coldLoadP99Ms: { pglite: 250, postgres: 100 },
  /** Database round trips per request with the caches off, the auth guard's included. */
  coldReadRoundTrips: 3,
  /** The zones screen's reads (a page, GET /zones/page); the whole list is shown, not judged. */
  coldZonesP99Ms: 50,
  coldZonesRoundTrips: 2,
  zonesP99Ms: 50,
  zonesQueriesPerRequest: 1,
  syncItemsPerSecond: 50_000,
  /**
   * An import's items applied per second / its floor's (issue 36: a sync of the import's new items
   * alone, in a list of their own, measured in the same run).
   */
  importFloorShare: 0.5,
  /** The sync of a list after a large import (its items' provenance carried over) / its plain sync, items/s. */
  importedSyncShare: 0.8,
  syncCallsRatio: 1,
  syncRssBytes: 300 * 1024 * 1024,
  loginGzipBytes: 150 * 1024,
  firstPageMs: 1000,
  searchAfterDebounceMs: 300,
  /** The progress a job shows (GET /api/jobs/:id) at most this far behind the items Cloudflare served. */
  jobProgressLagMs: 1000,
  /** A small job: the caller's time (POST to the end) / the job's own run (started_at..finished_at). */
  jobOverheadRatio: 1.2,
  /** Issue 37: the security report over the zones person's zones (1,000 in 5 accounts), 7 days. */
  reportQueriesRatio: 1,
  /** Cloudflare's GraphQL rate limit: queries per 5 minutes. */
  reportQueriesPer5Min: 300,
  reportColdMs: 1000,
  reportWarmP99Ms: 50,
  /** Mixed reads over two server processes on one PostgreSQL / all on one. */
  twoProcessShare: 0.9,
  /** Issue 39: servers' bans, Cloudflare list writes / the fewest one pending operation per account allows. */
  serverWritesRatioSlack: 0.1,
  /** From a server's ban call to the item at Cloudflare, p99. */
  serverBanArrivalP99Ms: 10_000,
  /** A server's ban call, p99. */
  serverCallP99Ms: 50,
  /** Issue 38: a filtered first page of the alerts page (and the open count), p99 at --connections. */
  alertsP99Ms: 50,
};

export const RESULTS_DIR = args.results ? resolve(args.results) : join(ROOT, 'bench', 'results');
export const WEB_DIST = args['web-dist'] ? resolve(args['web-dist']) : join(ROOT, 'apps', 'web', 'dist');

export const writeResults = !args['no-write'];

/** The options as the report's JSON keeps them. */
export const OPTIONS_RECORD = {
  itemCount: BIG_LIST_ITEMS,
  smallListItems: SMALL_LIST_ITEMS,
  zoneCount: ZONE_COUNT,
  connections: CONNECTIONS,
  durationS: DURATION_S,
  repeat: REPEAT,
  auditRows: AUDIT_ROWS,
  ipSearchItems: IPSEARCH_ITEMS,
  exportItems: EXPORT_ITEMS,
  serversMinutes: SERVERS_MINUTES,
  alertRows: ALERT_ROWS,
  sections: SECTIONS.filter(runs),
};
