import { useQuery } from '@tanstack/react-query';
import { twoFactorEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { twoFactorKeys } from './keys';

/** Whether two-factor sign-in is required of everyone (administrators only). */
export function useTwoFactorPolicyQuery() {
  return useQuery({
    queryKey: twoFactorKeys.policy(),
    queryFn: ({ signal }) => callEndpoint(twoFactorEndpoints.policy, { signal }),
  });
}
