import { Navigate, Outlet, useLocation } from 'react-router';
import { readSession } from '../lib/auth-token';
import { SessionProvider } from '../lib/session';

/**
 * Every route but /login needs a signed-in user (spec section 2). The token is read again on each
 * navigation, so an expired or undecodable one is removed and the person lands on /login.
 */
export function RequireSignedIn() {
  useLocation(); // re-read the token on every navigation
  const session = readSession();
  if (!session) return <Navigate to="/login" replace />;
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
