import { api } from './api';
import { clearToken } from './auth-token';

/** How long signing out waits for the server before signing out in the browser all the same. */
const SERVER_SIGN_OUT_TIMEOUT_MS = 5_000;

/**
 * Ends the session on the server (`POST /api/auth/logout`: its token is refused from then on, even a
 * copy of it), then removes the token here. A server that cannot be reached, or a session it had
 * already ended, does not stop the sign-out in the browser.
 */
export async function signOut(): Promise<void> {
  try {
    await api.post('/auth/logout', undefined, { signal: AbortSignal.timeout(SERVER_SIGN_OUT_TIMEOUT_MS) });
  } catch {
    // Signed out in the browser all the same.
  }
  clearToken();
}
