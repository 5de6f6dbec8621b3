import { within } from '@testing-library/react';
import type { Zone } from '@guardian/contract';
import { setToken } from '../../../lib/auth-token';
import { fakeApi, type Answer, type FakeApi } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/render-app';
import { sessionToken } from '../../../test/token';

/** The Cloudflare account of the report tests' zones. */
export const REPORT_ACCOUNT = 'a'.repeat(32);
export const REPORT_ZONE = 'b'.repeat(32);
export const OTHER_REPORT_ZONE = 'c'.repeat(32);

/** One of the person's zones, in the report tests' account. */
const reportZone = (id: string, domain: string): Zone => ({
  id,
  domain,
  accountName: 'Acme',
  account_id: REPORT_ACCOUNT,
  status: 'active',
  name_servers: [],
});

/** The report tests' zones. */
export const SHOP_ZONE = reportZone(REPORT_ZONE, 'shop.example');
export const BLOG_ZONE = reportZone(OTHER_REPORT_ZONE, 'blog.example');

/** A report's row about one of the tests' zones (by zone, left out): the zone's id and domain, then `fields`. */
export const ofZone = <T extends object>(zone: Zone, fields: T) => ({
  zone_id: zone.id,
  domain: zone.domain,
  ...fields,
});

/** The report range the tests' answers cover: the 24 hours before 10:30 on 29 November 2026. */
export const REPORT_SINCE = '2026-11-28T10:30:00.000Z';
export const REPORT_UNTIL = '2026-11-29T10:30:00.000Z';

/**
 * A person (level 1) signed in to a fake API that answers the Reports pages' zones (their filter) with
 * `zones` and `answers` besides; a test changes an answer later with `api.answer`.
 */
export function reportApi(zones: Zone[], answers: Record<string, Answer>): FakeApi {
  setToken(sessionToken({ level: 1 }));
  return fakeApi({ 'GET /api/cloudflare/zones': () => jsonResponse(200, zones), ...answers });
}

/** The cells of a table's rows (the header row left out), as a person reads them. */
export const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent?.trim()),
    );
