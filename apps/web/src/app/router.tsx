import { createBrowserRouter, RouterProvider } from 'react-router';
import { setUnauthorizedHandler } from '../lib/api';
import { queryClient } from './providers';
import { routes } from './routes';

const router = createBrowserRouter(routes);

// A 401 means the session ended on the server: drop what the old session cached and go to /login.
setUnauthorizedHandler(() => {
  queryClient.clear();
  void router.navigate('/login', { replace: true });
});

export function AppRouter() {
  return <RouterProvider router={router} />;
}
