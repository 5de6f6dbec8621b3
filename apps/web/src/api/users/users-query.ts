import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { USERS_PAGE_SIZE, userEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { userKeys, type UsersPageRequest } from './keys';

/**
 * One page of users (administrators only), searched by e-mail and paged by the server. The page on
 * screen stays while the next one loads, so paging and typing never blank the table.
 */
export function useUsersQuery(request: UsersPageRequest) {
  return useQuery({
    queryKey: userKeys.page(request),
    queryFn: ({ signal }) =>
      callEndpoint(userEndpoints.list, {
        query: { search: request.search || undefined, page: request.page, per_page: USERS_PAGE_SIZE },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}
