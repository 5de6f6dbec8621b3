import { tokenOwner } from './auth-token';

/** What /login is told when a signed-in page sends a person there (router location state). */
export interface LoginRedirect {
  /** The page (path and query) to return to after signing in. */
  from: string;
  /** The person had a session that ended (expired, or refused by the server): say so. */
  sessionEnded: boolean;
  /**
   * Whose page it was: the user id of the session that ended, or null for a visitor. Only that
   * person goes back there; anyone else signing in on this browser starts at /dashboard.
   */
  owner: string | null;
}

export function loginRedirect(
  location: { pathname: string; search: string },
  sessionEnded: boolean,
  owner: string | null,
): LoginRedirect {
  return { from: `${location.pathname}${location.search}`, sessionEnded, owner };
}

function isLoginRedirect(state: unknown): state is LoginRedirect {
  if (typeof state !== 'object' || state === null) return false;
  const { from, sessionEnded, owner } = state as Record<string, unknown>;
  return (
    typeof from === 'string' &&
    typeof sessionEnded === 'boolean' &&
    (typeof owner === 'string' || owner === null)
  );
}

/** Whether /login should say that the person's session ended. */
export function sessionEndedBy(state: unknown): boolean {
  return isLoginRedirect(state) && state.sessionEnded;
}

/**
 * Where to go once signed in (the new token stored): back to the page the person was sent from, when
 * it is a path of this app (never another origin, `//host` included, and never /login itself) and it
 * was theirs (an ended session's page is not another person's start), else /dashboard.
 */
export function returnPathOf(state: unknown): string {
  if (!isLoginRedirect(state)) return '/dashboard';
  const { from, owner } = state;
  if (owner !== null && owner !== tokenOwner()) return '/dashboard';
  const ownPath = from.startsWith('/') && !from.startsWith('//') && !from.startsWith('/\\');
  return ownPath && !/^\/login(?:[/?#]|$)/.test(from) ? from : '/dashboard';
}
