/** What /login is told when a signed-in page sends a person there (router location state). */
export interface LoginRedirect {
  /** The page (path and query) to return to after signing in. */
  from: string;
  /** The person had a session that ended (expired, or refused by the server): say so. */
  sessionEnded: boolean;
}

export function loginRedirect(
  location: { pathname: string; search: string },
  sessionEnded: boolean,
): LoginRedirect {
  return { from: `${location.pathname}${location.search}`, sessionEnded };
}

function isLoginRedirect(state: unknown): state is LoginRedirect {
  if (typeof state !== 'object' || state === null) return false;
  const { from, sessionEnded } = state as Record<string, unknown>;
  return typeof from === 'string' && typeof sessionEnded === 'boolean';
}

/** Whether /login should say that the person's session ended. */
export function sessionEndedBy(state: unknown): boolean {
  return isLoginRedirect(state) && state.sessionEnded;
}

/**
 * Where to go after signing in: back to the page the person was sent from, when it is a path of this
 * app (never another origin, `//host` included, and never /login itself), else /dashboard.
 */
export function returnPathOf(state: unknown): string {
  if (!isLoginRedirect(state)) return '/dashboard';
  const { from } = state;
  const ownPath = from.startsWith('/') && !from.startsWith('//') && !from.startsWith('/\\');
  return ownPath && !/^\/login(?:[/?#]|$)/.test(from) ? from : '/dashboard';
}
