import { useQuery } from '@tanstack/react-query';
import { planEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { planKeys } from './keys';

/** The signed-in person's plan and their use of each limit (the profile and the overview). */
export function useOwnPlanQuery() {
  return useQuery({
    queryKey: planKeys.own(),
    queryFn: ({ signal }) => callEndpoint(planEndpoints.own, { signal }),
  });
}
