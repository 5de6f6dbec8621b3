/**
 * An endpoint's path and its params, without zod: the web's API client (in the page every visit loads
 * first) fills paths in with these, and importing them brings no schema along.
 */

/** The `:name` params of an endpoint's path. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]!);
}

/** An endpoint's path with its params filled in, each encoded: `pathOf(dnsRecordEndpoints.list, { zone_id })`. */
export function pathOf(endpoint: { path: string }, params: Record<string, string | number> = {}): string {
  return endpoint.path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${endpoint.path} needs the param ${name}.`);
    return encodeURIComponent(String(value));
  });
}
