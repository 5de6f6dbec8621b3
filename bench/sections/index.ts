/**
 * Every section of the benchmark, by its name in `--only=` / `--skip=` (options.ts SECTIONS gives the
 * order). A section is a function of the Context that adds its rows and budgets to `ctx.report`;
 * the three that take options of their own get them here.
 */
import {
  ALERT_ROWS,
  AUDIT_ROWS,
  BIG_LIST_ITEMS,
  CONNECTIONS,
  DURATION_S,
  EXPORT_ITEMS,
  IPSEARCH_ITEMS,
  PAGE_SIZE,
  WEB_DIST,
  type Section,
} from '../options';
import { alertMailSection } from './alert-mail';
import { alertsSection } from './alerts';
import { auditSection } from './audit';
import { expirySection } from './expiry';
import { ensureMirrored, type Context } from './context';
import { fairnessSection } from './fairness';
import { importSection } from './import';
import { jobsSection } from './jobs';
import { ipSearchSection } from './ip-search';
import { readsSection } from './reads';
import { reportsSection } from './reports';
import { serversSection } from './servers';
import { syncSection } from './sync';
import { webSection } from './web';
import { writesSection } from './writes';
import { zonesSection } from './zones';

export type SectionRun = (ctx: Context) => Promise<void>;

export const sections: Record<Section, SectionRun> = {
  sync: syncSection,
  reads: readsSection,
  zones: zonesSection,
  writes: writesSection,
  jobs: jobsSection,
  web: webSection,
  fairness: (c) =>
    fairnessSection({
      ...c,
      serverBundle: c.bundles.server,
      webDist: WEB_DIST,
      bigListKey: () => ensureMirrored(c).then(() => c.listKeys.big!),
      bigAccount: c.seeded.listAccounts[0]!,
      bigListName: c.seeded.bigList.name,
      itemCount: BIG_LIST_ITEMS,
      pageSize: PAGE_SIZE,
      durationS: DURATION_S * 2,
    }),
  audit: (c) => auditSection({ ...c, rows: AUDIT_ROWS, durationS: DURATION_S }),
  ipsearch: (c) =>
    ipSearchSection({
      ...c,
      items: IPSEARCH_ITEMS,
      exportItems: EXPORT_ITEMS,
      connections: CONNECTIONS,
      durationS: DURATION_S,
    }),
  expiry: expirySection,
  import: importSection,
  reports: reportsSection,
  servers: serversSection,
  'alert-mail': alertMailSection,
  alerts: (c) => alertsSection({ ...c, rows: ALERT_ROWS, connections: CONNECTIONS, durationS: DURATION_S }),
};
