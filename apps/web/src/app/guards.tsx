import { Navigate, Outlet, useLocation } from 'react-router';
import { getToken, readSession, tokenOwner } from '../lib/auth-token';
import { loginRedirect } from '../lib/login-redirect';
import { SessionProvider } from '../lib/session';

/**
 * Every route but /login needs a signed-in user (spec section 2). The token is read again on each
 * navigation, so an expired or undecodable one is removed and the person lands on /login.
 */
export function RequireSignedIn() {
  const location = useLocation(); // re-read the token on every navigation
  const hadToken = getToken() !== null;
  const owner = tokenOwner();
  const session = readSession();
  // Back here after signing in; and a person whose token just expired is told so.
  if (!session) return <Navigate to="/login" replace state={loginRedirect(location, hadToken, owner)} />;
  return (
    <SessionProvider session={session}>
      <Outlet />
    </SessionProvider>
  );
}

/** /login is for visitors only; a signed-in user goes to /dashboard. */
export function VisitorOnly() {
  useLocation(); // re-read the token on every navigation
  return readSession() ? <Navigate to="/dashboard" replace /> : <Outlet />;
}
