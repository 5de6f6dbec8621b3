import { useQuery } from '@tanstack/react-query';
import { twoFactorEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { twoFactorKeys } from './keys';

/** Whether two-factor is on for the person, their unused recovery codes, and whether it is required. */
export function useTwoFactorStatusQuery() {
  return useQuery({
    queryKey: twoFactorKeys.status(),
    queryFn: ({ signal }) => callEndpoint(twoFactorEndpoints.status, { signal }),
  });
}
