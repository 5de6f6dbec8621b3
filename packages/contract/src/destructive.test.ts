import { describe, expect, it } from 'vitest';
import { allEndpoints, endpoints } from './endpoints';
import type { Endpoint } from './shared/endpoint';

/** The endpoints that destroy without being a DELETE: each must be declared `destructive` too. */
const destructiveNonDeletes = [endpoints.banLists.clean, endpoints.ipSearch.remove];

/** The words a destructive endpoint's summary starts with: it says what is destroyed before anything else. */
const DESTROYING = /^(Deletes|Removes|Empties|Revokes|Ends|Stops|Turns off)\b/;

const route = (endpoint: Endpoint) => `${endpoint.method} ${endpoint.path}`;

describe('destructive endpoints in the API reference', () => {
  it('flags every DELETE and every destroying POST', () => {
    const unflagged = [
      ...allEndpoints.filter((endpoint) => endpoint.method === 'DELETE'),
      ...destructiveNonDeletes,
    ]
      .filter((endpoint) => endpoint.destructive === undefined)
      .map(route);
    expect(unflagged).toEqual([]);
  });

  it.each(
    allEndpoints
      .filter((endpoint) => endpoint.destructive)
      .map((endpoint) => [route(endpoint), endpoint] as const),
  )('%s: its summary says what it destroys, and where', (_route, endpoint) => {
    expect(endpoint.summary).toMatch(DESTROYING);
    if (endpoint.destructive === 'cloudflare') expect(endpoint.summary).toMatch(/\bat Cloudflare\b/);
    // Under /api/cloudflare/ a reader would assume Cloudflare: the summary says it is left alone.
    else if (endpoint.path.startsWith('/api/cloudflare/'))
      expect(endpoint.summary).toMatch(/\bnothing is deleted at Cloudflare\b/);
  });

  it('says Clean All empties every list at Cloudflare (it is not a clean-up of the mirror)', () => {
    expect(endpoints.banLists.clean.summary).toMatch(/^Empties every ban list .* at Cloudflare/);
  });
});
