import { createBrowserRouter, RouterProvider } from 'react-router';
import { setTwoFactorSetupHandler, setUnauthorizedHandler } from '../lib/api';
import { tokenOwner } from '../lib/auth-token';
import { loginRedirect } from '../lib/login-redirect';
import { queryClient } from './providers';
import { routes } from './routes';

const router = createBrowserRouter(routes);

// A 401 means the session ended on the server: drop what the old session cached and go to /login.
setUnauthorizedHandler((owner) => {
  queryClient.clear();
  const { location } = router.state;
  if (location.pathname === '/login') return;
  void router.navigate('/login', { replace: true, state: loginRedirect(location, true, owner) });
});

// An administrator requires two-factor and this person has not turned it on: only enrolment is open.
setTwoFactorSetupHandler(() => {
  const { location } = router.state;
  if (location.pathname === '/two-factor/setup') return;
  void router.navigate('/two-factor/setup', {
    replace: true,
    state: loginRedirect(location, false, tokenOwner()),
  });
});

export function AppRouter() {
  return <RouterProvider router={router} />;
}
