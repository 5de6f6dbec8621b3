import { useQuery } from '@tanstack/react-query';
import { passwordLinkEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { passwordLinkKeys } from './keys';

/**
 * Whether a set-password link still works, and for which e-mail. A refusal (not valid, used, expired)
 * is an answer, not a hiccup: it is not retried, and checking again counts against the rate limit.
 */
export function usePasswordLinkStatusQuery(token: string) {
  return useQuery({
    queryKey: passwordLinkKeys.status(token),
    queryFn: ({ signal }) => callEndpoint(passwordLinkEndpoints.check, { body: { token }, signal }),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}
