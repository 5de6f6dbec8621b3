import { useQuery } from '@tanstack/react-query';
import { planEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { planKeys } from './keys';

/** Every plan, with how many people have it (administrators only; at most MAX_PLANS). */
export function usePlansQuery() {
  return useQuery({
    queryKey: planKeys.list(),
    queryFn: ({ signal }) => callEndpoint(planEndpoints.list, { signal }),
  });
}
