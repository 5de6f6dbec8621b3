import { useQuery } from '@tanstack/react-query';
import { alertEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { alertKeys } from './keys';

/** How many of the person's alerts are open (the top bar's alerts count), kept fresh every `refetchInterval`. */
export function useAlertsSummaryQuery(options: { refetchInterval?: number | false } = {}) {
  return useQuery({
    queryKey: alertKeys.summary(),
    queryFn: ({ signal }) => callEndpoint(alertEndpoints.summary, { signal }),
    refetchInterval: options.refetchInterval ?? false,
  });
}
