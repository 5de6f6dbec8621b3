import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError } from '../lib/api';
import { ToastProvider } from '../components/ui/toast';

/** One quick second try, so a blip is not an error and a real failure is said within a second or two. */
const MAX_RETRIES = 1;
const RETRY_DELAY_MS = 1_000;

/**
 * Retries only a read that got no answer from Guardian: no response at all, or a 5xx without the
 * contract's error body (a proxy's page while the server restarts). An answer with the server's own
 * message is shown at once: a 4xx answers the same again, and the server has already retried
 * Cloudflare before a 502 (issue 35 item 13: three tries with backoff made a failed read take 15 s).
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && (error.body !== null || (error.status >= 400 && error.status < 500)))
    return false;
  return failureCount < MAX_RETRIES;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, retryDelay: RETRY_DELAY_MS, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/** The app's one query client. */
export const queryClient = createQueryClient();

/** Everything every route needs: the query client and the toaster. */
export function AppProviders({
  client = queryClient,
  children,
}: {
  client?: QueryClient;
  children: ReactNode;
}) {
  return (
    <QueryClientProvider client={client}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>
  );
}
