import type { FastifyInstance } from 'fastify';

/**
 * Who may call a route: anyone, any signed-in user (the default under /api), administrators, or a
 * registered server with its own key (guarded by the servers module, not by the person's guard).
 */
export type RouteAccess = 'public' | 'user' | 'admin' | 'server';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /**
     * The path params whose ownership the route checks (in SQL, through the user's own accounts; a
     * miss is NOT_FOUND). Every /api route with path params must declare it.
     */
    owns?: readonly string[];
    /** Declared `costly` (see Endpoint.costly): a person's run a few at a time (request-limits.ts). */
    costly?: true;
  }
  interface FastifyInstance {
    /** Every route registered so far, for tests that check route conventions. */
    readonly routeTable: readonly RouteEntry[];
  }
}

export interface RouteEntry {
  method: string;
  url: string;
  access: RouteAccess | undefined;
  owns: readonly string[] | undefined;
}

/**
 * The access the auth guard checks on a route ('user' or 'admin'), or undefined when it guards none:
 * a public route, or one outside the API. The hooks that act on a signed-in caller (the guard, the
 * API-key limits, the two-factor gate) are attached to exactly these routes.
 */
export function guardedAccess(route: {
  url: string;
  config?: { access?: RouteAccess };
}): 'user' | 'admin' | undefined {
  const access = route.config?.access ?? 'user';
  return access === 'public' || access === 'server' || !isApiPath(route.url) ? undefined : access;
}

/** Starts recording routes; call before any route is registered. */
export function trackRoutes(app: FastifyInstance): void {
  const routes: RouteEntry[] = [];
  app.decorate('routeTable', routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routes.push({ method, url: route.url, access: route.config?.access, owns: route.config?.owns });
    }
  });
}

/** Whether a URL (its path, with or without a query string) is under /api. Runs on every request. */
export function isApiPath(url: string): boolean {
  return url.startsWith('/api') && (url.length === 4 || url[4] === '/' || url[4] === '?');
}

/** The `:name` params of a route URL. */
export function pathParams(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]!);
}

/** /api routes that take ids in the path without declaring, exactly, which ones they check. */
export function routesBreakingOwnership(routes: readonly RouteEntry[]): RouteEntry[] {
  return routes.filter((route) => {
    const params = pathParams(route.url);
    if (!isApiPath(route.url) || params.length === 0) return false;
    const owns = route.owns ?? [];
    return params.some((param) => !owns.includes(param)) || owns.some((param) => !params.includes(param));
  });
}
