import { callEndpoint } from '../../lib/api';
import { auditEndpointsOf, auditQuery, type AuditFilters, type AuditScope } from './keys';

/** The filtered trail as CSV text (the server caps an export at 100,000 rows). */
export function exportAudit(scope: AuditScope, filters: AuditFilters) {
  return callEndpoint(auditEndpointsOf(scope).csv, { query: auditQuery(filters) });
}
