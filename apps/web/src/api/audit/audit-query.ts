import { useInfiniteQuery } from '@tanstack/react-query';
import { callEndpoint } from '../../lib/api';
import { auditEndpointsOf, auditKeys, auditQuery, type AuditFilters, type AuditScope } from './keys';

/** Events per page of the Activity pages. */
export const AUDIT_PAGE_SIZE = 50;

/** The trail, newest first, a page at a time (Load more asks for the next older page). */
export function useAuditQuery(scope: AuditScope, filters: AuditFilters) {
  return useInfiniteQuery({
    queryKey: auditKeys.list(scope, filters),
    queryFn: ({ pageParam, signal }) =>
      callEndpoint(auditEndpointsOf(scope).page, {
        query: { ...auditQuery(filters), limit: AUDIT_PAGE_SIZE, before: pageParam },
        signal,
      }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}
