import { auditEndpoints, type AuditOutcome, type AuditQuery } from '@guardian/contract';

/** What the Activity pages filter the trail by (empty strings mean no filter). */
export interface AuditFilters {
  /** Text the events' words contain (an address, a list name...). */
  q: string;
  actor: string;
  account_id: string;
  action: string;
  outcome: AuditOutcome | '';
  /**
   * Dates as the date inputs give them: YYYY-MM-DD, from the start of `from` to the end of `to`; or
   * exact ISO times, as a report's link to the table gives them (the changes it counted).
   */
  from: string;
  to: string;
}

/** Whose trail: one's own (/api/audit) or everyone's (/api/admin/audit, administrators). */
export type AuditScope = 'mine' | 'everyone';

export const auditKeys = {
  all: ['audit'] as const,
  list: (scope: AuditScope, filters: AuditFilters) => [...auditKeys.all, scope, filters] as const,
};

/** The trail's endpoints of `scope`: a page of it, and its CSV export. */
export const auditEndpointsOf = (scope: AuditScope) =>
  scope === 'mine'
    ? { page: auditEndpoints.mine, csv: auditEndpoints.mineCsv }
    : { page: auditEndpoints.everyone, csv: auditEndpoints.everyoneCsv };

/** A date input's value: YYYY-MM-DD. */
export const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** The filters as the API's query: dates as whole days in the person's time zone, exact times as they are. */
export function auditQuery(filters: AuditFilters): Omit<AuditQuery, 'before' | 'limit'> {
  const day = (date: string, plusDays = 0) => {
    if (!date) return undefined;
    if (!DATE_ONLY.test(date)) return date;
    const start = new Date(`${date}T00:00:00`);
    start.setDate(start.getDate() + plusDays);
    return Number.isNaN(start.getTime()) ? undefined : start.toISOString();
  };
  return {
    q: filters.q.trim() || undefined,
    actor: filters.actor.trim() || undefined,
    account_id: filters.account_id.trim() || undefined,
    action: filters.action || undefined,
    outcome: filters.outcome || undefined,
    from: day(filters.from),
    to: day(filters.to, 1),
  };
}
