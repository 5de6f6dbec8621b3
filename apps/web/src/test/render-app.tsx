import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders, createQueryClient } from '../app/providers';
import { routes } from '../app/routes';

/** Renders the whole app at `path`, with a fresh query client. Returns the router to read its location. */
export function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <AppProviders client={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router };
}

/** A fetch answering every call with `status` and `body` as JSON. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** An answer with the contract's error body: `message` in it twice, as the server words it; on `field` if given. */
export function errorResponse(status: number, code: string, message: string, field?: string): Response {
  return jsonResponse(status, {
    code,
    message,
    errors: [field === undefined ? { message } : { message, field }],
  });
}
